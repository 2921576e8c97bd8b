import { createRequire } from 'node:module';
import t from 'tap';
import { jsonPost } from '../api/rest/helpers.js';
import { startTestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

// nunjucks loads with the first template, not with the hub. This file imports nothing of the template engine at
// the top, so the module cache shows what a hub loads by itself.

const require = createRequire(import.meta.url);
const nunjucksModules = (): string[] => Object.keys(require.cache).filter((p) => /node_modules\/nunjucks\//.test(p));

t.test('a hub without templates never loads nunjucks; the first render does', async (t) => {
  const th = await startTestHub(t);
  await waitForState(th.hub.core, 'light.kitchen', () => true);
  t.same(nunjucksModules(), [], 'nothing of nunjucks loaded');
  const static_ = await th.api('/api/template', jsonPost({ template: 'no template here' }));
  t.equal(await static_.text(), 'no template here');
  t.same(nunjucksModules(), [], 'a text without {{ }} needs no engine');
  const res = await th.api('/api/template', jsonPost({ template: "{{ states('light.kitchen') in ['on', 'off'] }}" }));
  t.equal(await res.text(), 'True');
  t.ok(nunjucksModules().length > 0, 'nunjucks loaded for the first template');
});
