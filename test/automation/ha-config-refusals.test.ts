import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ConfigFileError, formatIssue, type LocatedIssue, loadConfig } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';

/**
 * Broken variants of the Home Assistant configuration in test/fixtures/ha-config: each edits one file and must
 * be refused with one problem that names that file (the included one, not configuration.yaml), the line of the
 * edit, and the key.
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/ha-config', import.meta.url));

interface Case {
  readonly name: string;
  readonly file: string;
  /** Text in the file, replaced by `to`; the problem must be on the line where `to` starts. */
  readonly from: string;
  readonly to: string;
  /** The last key of the problem's path. */
  readonly key: string | number;
  readonly message: RegExp;
  /** Text of `to` on the problem's line, when that is not the first line the edit changed. */
  readonly at?: string;
  /** Problems besides the one at the edit (each also in the edited file). */
  readonly more?: number;
}

const CASES: readonly Case[] = [
  {
    name: 'an unknown trigger type (newer syntax)',
    file: 'automations.yaml',
    from: '  - trigger: event\n',
    to: '  - trigger: events\n',
    key: 'trigger',
    message: /unknown trigger type "events"; supported: state, numeric_state/,
  },
  {
    name: 'an unknown trigger platform (older syntax)',
    file: 'automations/porch.yaml',
    from: '    platform: sun\n',
    to: '    platform: sunn\n',
    key: 'platform',
    message: /unknown trigger type "sunn"/,
  },
  {
    name: 'a misspelt key in an automation',
    file: 'automations.yaml',
    from: "  description: ''\n  triggers:\n  - trigger: event",
    to: "  description: ''\n  trigers:\n  - trigger: event",
    key: 'trigers',
    message: /unknown option; allowed: .*triggers/,
    // Also "triggers is required", at the automation.
    more: 1,
  },
  {
    name: 'a misspelt key in an action',
    file: 'automations/house.yaml',
    from: '    - service: counter.increment\n',
    to: '    - service: counter.increment\n      entity: counter.doorbell_rings\n',
    key: 'entity',
    message: /unknown option/,
  },
  {
    name: 'a template that does not parse',
    file: 'automations.yaml',
    from: "value_template: '{{ states(''sensor.soil_moisture'') | float(100) < 20 }}'",
    to: "value_template: '{{ states(''sensor.soil_moisture'') | float(100) < 20 }'",
    key: 'value_template',
    message: /template/i,
  },
  {
    name: 'a template that does not parse in a template entity',
    file: 'templates.yaml',
    from: "state: \"{{ is_state('binary_sensor.hallway_motion', 'on') or",
    to: "state: \"{% if is_state('binary_sensor.hallway_motion', 'on') %} or",
    key: 'state',
    message: /template/i,
  },
  {
    name: 'a wrong type in a helper',
    file: 'helpers/input_number.yaml',
    from: '  min: 0\n',
    to: '  min: low\n',
    key: 'min',
    message: /number/,
  },
  {
    name: 'an initial option that is not one of the options',
    file: 'helpers/input_select.yaml',
    from: '  initial: Home\n',
    to: '  initial: Holiday\n',
    key: 'initial',
    message: /Holiday/,
  },
  {
    name: 'a duration that is not one',
    file: 'automations.yaml',
    from: '    for: 00:05:00\n',
    to: '    for: 00:05:xx\n',
    key: 'for',
    message: /duration|HH:MM/,
  },
  {
    name: 'a time of day that is not one',
    file: 'automations/porch.yaml',
    from: '      at: "23:59:00"\n',
    to: '      at: "24:59:00"\n',
    key: 'at',
    message: /not a time of day/,
  },
  {
    name: 'an unknown condition type',
    file: 'automations/house.yaml',
    from: '            - condition: template\n',
    to: '            - condition: templat\n',
    key: 'condition',
    message: /unknown condition type "templat"/,
  },
  {
    name: 'an entity id that is not one',
    file: 'scripts.yaml',
    from: '          - light.kitchen\n',
    to: '          - Kitchen light\n',
    key: 1,
    message: /not an entity id/,
  },
  {
    name: 'a script field with an unknown key',
    file: 'scripts.yaml',
    from: '      description: Brightness of the bedroom light, in percent\n',
    to: '      descripton: Brightness of the bedroom light, in percent\n',
    key: 'descripton',
    message: /unknown option/,
  },
  {
    name: 'an include of a file that is not there',
    file: 'configuration.yaml',
    from: 'script: !include scripts.yaml\n',
    to: 'script: !include scripst.yaml\n',
    key: 'script',
    message: /!include scripst.yaml: .*scripst.yaml not found/,
  },
  {
    name: 'a secret that is not defined',
    file: 'configuration.yaml',
    from: 'latitude: !secret home_latitude',
    to: 'latitude: !secret home_lat',
    key: 'latitude',
    message: /!secret home_lat is not defined in .*secrets.yaml/,
  },
  {
    name: 'a scene entity id that is not one',
    file: 'scenes.yaml',
    from: "    light.kitchen: 'off'\n",
    to: "    kitchen light: 'off'\n",
    key: 'kitchen light',
    message: /not an entity id/,
  },
];

async function refusal(t: Tap.Test, c: Case): Promise<{ issues: readonly LocatedIssue[]; line: number; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-ha-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(FIXTURE, dir, { recursive: true });
  const path = join(dir, c.file);
  const text = await readFile(path, 'utf8');
  if (!text.includes(c.from)) throw new Error(`${c.file} does not contain ${JSON.stringify(c.from)}`);
  const edited = text.replace(c.from, c.to);
  await writeFile(path, edited);
  // The line of the first character the edit changed.
  let same = 0;
  while (same < c.to.length && c.from[same] === c.to[same]) same++;
  const offset = c.at === undefined ? same : c.to.indexOf(c.at);
  const line = edited.slice(0, edited.indexOf(c.to) + offset).split('\n').length;
  try {
    await loadConfig(join(dir, 'configuration.yaml'), SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return { issues: err.issues, line, path };
    throw err;
  }
  return { issues: [], line, path };
}

declare namespace Tap {
  type Test = { teardown(fn: () => unknown): void };
}

t.test('the fixture itself loads without problems', async (t) => {
  const config = await loadConfig(join(FIXTURE, 'configuration.yaml'), SECTION_VALIDATORS);
  t.equal((config.sections.automation as unknown[]).length, 11, 'six from automations.yaml, five from automations/');
});

for (const c of CASES) {
  t.test(`refused: ${c.name}, in ${c.file}`, async (t) => {
    const { issues, line, path } = await refusal(t, c);
    t.equal(issues.length, 1 + (c.more ?? 0), issues.map(formatIssue).join('\n') || 'no problem reported');
    for (const other of issues) t.equal(other.file, path, 'every problem names the edited file');
    const issue = issues.find((i) => i.path.at(-1) === c.key) ?? issues[0];
    if (issue === undefined) return;
    t.equal(issue.line, line, 'at the line of the edit');
    t.equal(issue.path.at(-1), c.key, 'names the key');
    t.match(issue.message, c.message);
    t.match(formatIssue(issue), `${path}:${line}:`, 'file:line in the printed form');
  });
}
