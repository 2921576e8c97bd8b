import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t from 'tap';
import { type LocatedIssue, loadConfig, type SectionValidators } from '../../src/config/load.js';
import { ConfigReader } from '../../src/config/reader.js';
import { fileProblems } from './problems.js';

/** Sections that check what they get: a list of named items, a mapping of named things, a port. */
const VALIDATORS: SectionValidators = {
  items: (value, path, issues) => {
    if (!Array.isArray(value)) return void issues.push({ path, message: 'expected a list' });
    value.forEach((item, i) => {
      const r = ConfigReader.of(item, [...path, i], issues);
      r.string('name', { required: true });
      r.number('size');
      r.rejectUnknown();
    });
  },
  things: (value, path, issues) => {
    const r = ConfigReader.of(value, path, issues);
    for (const key of Object.keys(r.value)) {
      const c = ConfigReader.of(r.raw(key), [...path, key], issues);
      c.string('name', { required: true });
      c.rejectUnknown();
    }
  },
  server: (value, path, issues) => {
    const r = ConfigReader.of(value, path, issues);
    r.string('host');
    r.string('password');
    r.rejectUnknown();
  },
};

async function configDir(t: { teardown(fn: () => unknown): void }, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-include-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return join(dir, 'configuration.yaml');
}

const problems = (file: string): Promise<readonly LocatedIssue[]> => fileProblems(file, VALIDATORS);

/** `file:line:column path: message` with the temporary folder taken off. */
const shown = (file: string, issues: readonly LocatedIssue[]) =>
  issues.map((i) => `${i.file.slice(dirname(file).length + 1)}:${i.line}:${i.column} ${i.path.join('.')}: ${i.message}`);

t.test('!include and the four !include_dir forms load as Home Assistant loads them', async (t) => {
  const file = await configDir(t, {
    'configuration.yaml': [
      'items: !include items.yaml',
      'things: !include_dir_named things',
      'server: !include server/main.yaml',
      'hub:',
      '  name: !env_var HEARTH_TEST_NAME Our Home',
    ].join('\n'),
    'items.yaml': '- name: one\n- name: two\n  size: 2\n',
    'things/lamp.yaml': 'name: Lamp\n',
    'things/sub/fan.yaml': 'name: Fan\n',
    'things/.hidden.yaml': 'name: Hidden\n',
    'things/notes.txt': 'not yaml',
    'things/secrets.yaml': 'x: 1\n',
    'server/main.yaml': 'host: !include host.yaml\npassword: !secret server_password\n',
    'server/host.yaml': 'example.org\n',
    'secrets.yaml': 'server_password: hunter2\n',
  });
  const config = await loadConfig(file, VALIDATORS);
  t.same(config.sections.items, [{ name: 'one' }, { name: 'two', size: 2 }]);
  t.same(
    config.sections.things,
    { lamp: { name: 'Lamp' }, fan: { name: 'Fan' } },
    'subfolders too; hidden, non-yaml and secrets.yaml skipped',
  );
  t.same(
    config.sections.server,
    { host: 'example.org', password: 'hunter2' },
    'nested include relative to its file; secrets from the folder above',
  );
  t.equal(config.hub.name, 'Our Home', '!env_var falls back to its default');

  const merged = await configDir(t, {
    'configuration.yaml': 'items: !include_dir_merge_list items\nthings: !include_dir_merge_named things/\n',
    'items/a.yaml': '- name: a1\n- name: a2\n',
    'items/b.yaml': '- name: b1\n',
    'things/a.yaml': 'lamp: { name: Lamp }\nfan: { name: Old fan }\n',
    'things/b.yaml': 'fan: { name: Fan }\n',
  });
  const m = await loadConfig(merged, VALIDATORS);
  t.same(m.sections.items, [{ name: 'a1' }, { name: 'a2' }, { name: 'b1' }], 'lists merged in file order');
  t.same(m.sections.things, { lamp: { name: 'Lamp' }, fan: { name: 'Fan' } }, 'a later file overrides a key');

  const listed = await configDir(t, {
    'configuration.yaml': 'items: !include_dir_list items\n',
    'items/1-first.yaml': 'name: first\n',
    'items/2-second.yaml': 'name: second\nsize: 3\n',
  });
  t.same((await loadConfig(listed, VALIDATORS)).sections.items, [{ name: 'first' }, { name: 'second', size: 3 }]);
});

t.test('a problem in included content names the included file, its line and the key', async (t) => {
  const file = await configDir(t, {
    'configuration.yaml': 'items: !include items.yaml\nthings: !include_dir_named things\nserver: !include_dir_merge_named server\n',
    'items.yaml': '- name: one\n- name: two\n  colour: red\n- size: big\n',
    'things/lamp.yaml': 'name: Lamp\nwatts: 4\n',
    'server/a.yaml': 'host: [a, b]\n',
  });
  t.same(shown(file, await problems(file)), [
    'items.yaml:3:3 items.1.colour: unknown option; allowed: name, size',
    'items.yaml:4:3 items.2.name: is required: expected a string',
    'items.yaml:4:9 items.2.size: "big" is not allowed: expected a number',
    'things/lamp.yaml:2:1 things.lamp.watts: unknown option; allowed: name',
    // A list or mapping value is pointed at by its key.
    'server/a.yaml:1:1 server.host: expected a string, got a list',
  ]);
});

t.test('a missing, looping or misused include is a problem at the tag', async (t) => {
  const file = await configDir(t, {
    'configuration.yaml': [
      'items: !include missing.yaml',
      'things: !include_dir_named nowhere',
      'server: !include loop.yaml',
      'hub:',
      '  name: !include',
      '  country: !include [a, b]',
      '  language: !env_var HEARTH_TEST_UNSET_VARIABLE',
    ].join('\n'),
    'loop.yaml': 'host: !include configuration.yaml\n',
  });
  const issues = shown(file, await problems(file));
  t.match(issues, [
    /^configuration.yaml:1:8 items: !include missing.yaml: \/.*\/missing.yaml not found$/,
    /^configuration.yaml:5:9 hub.name: !include needs a file name/,
    /^configuration.yaml:6:12 hub.country: !include takes a file name .*, not a list or mapping/,
    /^configuration.yaml:7:13 hub.language: !env_var HEARTH_TEST_UNSET_VARIABLE: the environment variable is not set/,
    /^loop.yaml:1:7 server.host: !include configuration.yaml: the file includes itself/,
  ]);
  t.equal(issues.length, 5, 'no follow-on problems from validators where the include failed');
});

t.test('a syntax error in an included file is reported there', async (t) => {
  const file = await configDir(t, { 'configuration.yaml': 'items: !include items.yaml\n', 'items.yaml': '- name: a\n  name: b\n' });
  const issues = shown(file, await problems(file));
  t.match(issues, [
    /^configuration.yaml:1:8 items: !include items.yaml: .*items.yaml has syntax errors$/,
    /^items.yaml:2:3 : YAML syntax error: Map keys must be unique/,
  ]);
});

t.test('a problem in a file merged by !include_dir_merge_list has its merged index', async (t) => {
  const file = await configDir(t, {
    'configuration.yaml': 'items: !include_dir_merge_list items\n',
    'items/a.yaml': '- name: a1\n- name: a2\n',
    'items/b.yaml': '- name: b1\n- name: !secret missing\n  size: .nan\n',
    'secrets.yaml': 'other: 1\n',
  });
  t.match(shown(file, await problems(file)), [
    /^items\/b.yaml:2:9 items.3.name: !secret missing is not defined in .*secrets.yaml; defined: other$/,
    /^items\/b.yaml:3:9 items.3.size: .nan is not allowed: expected a finite number$/,
  ]);
});
