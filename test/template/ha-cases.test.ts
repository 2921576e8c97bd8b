import t from 'tap';
import { HA_CASE_FILES, KNOWN_DIFFERENCES } from '../fixtures/ha-template-cases/index.js';
import { caseKey, check } from '../fixtures/ha-template-cases/run.js';

/**
 * Home Assistant's own template tests, ported as a table (test/fixtures/ha-template-cases/): each case renders through
 * hearth's engine with the states it sets up and is compared with what HA's `Template.async_render` gives.
 * Every case must pass except the known differences (each documented in docs/templates.md); a known
 * difference that passes now must be taken off the list.
 */

t.test("Home Assistant's template tests", async (t) => {
  let total = 0;
  let passed = 0;
  const unexpected: string[] = [];
  const fixed: string[] = [];
  for (const file of HA_CASE_FILES) {
    for (const c of file.cases) {
      total++;
      const problem = check(c);
      const known = Object.hasOwn(KNOWN_DIFFERENCES, caseKey(c));
      if (problem === undefined) {
        passed++;
        if (known) fixed.push(caseKey(c));
      } else if (!known) unexpected.push(`${c.file} ${c.fn}: ${c.tpl.trim().slice(0, 160)}\n    ${problem}`);
    }
  }
  const rate = passed / total;
  t.comment(`${passed} of ${total} cases render as in Home Assistant (${(rate * 100).toFixed(1)} %)`);
  t.ok(total >= 400, `at least 400 cases (${total})`);
  t.ok(rate >= 0.98, `at least 98 % pass (${(rate * 100).toFixed(1)} %)`);
  t.same(unexpected, [], 'no case outside the known differences fails');
  t.same(fixed, [], 'no known difference passes (take it off the list)');
});
