import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import t from 'tap';
import {
  ConfigFileError,
  DEMO_CONFIG_PATH,
  type LocatedIssue,
  loadConfig,
  parseConfigText,
  readConfigText,
  type SectionValidators,
} from '../../src/config/load.js';
import { ConfigError, ConfigReader } from '../../src/config/reader.js';
import { DEFAULT_MAX_ENTITIES } from '../../src/core/state-table.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';

/** A section validator like a driver's: a list of {name, mode?} items. */
const VALIDATORS: SectionValidators = {
  widgets: (value, path, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ path, message: 'expected a list of widgets' });
      return;
    }
    value.forEach((item, i) => {
      const r = ConfigReader.of(item, [...path, i], issues);
      r.string('name', { required: true });
      r.oneOf('mode', ['fast', 'slow'] as const);
      r.rejectUnknown();
    });
  },
};

function problems(text: string, validators: SectionValidators = VALIDATORS): readonly LocatedIssue[] {
  try {
    parseConfigText(text, null, validators);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues;
    throw err;
  }
  throw new Error('expected configuration problems');
}

/** `line:column path` of each problem, the part users navigate by. */
function where(issues: readonly LocatedIssue[]): string[] {
  return issues.map((i) => `${i.line}:${i.column} ${i.path.map(String).join('.')}`);
}

t.test('a minimal configuration gets the hub defaults', async (t) => {
  const config = parseConfigText('', null, VALIDATORS);
  t.same(config.hub, {
    name: 'Home',
    latitude: 52.3731,
    longitude: 4.8922,
    elevation: 0,
    unit_system: 'metric',
    time_zone: 'UTC',
    currency: 'EUR',
    country: null,
    language: 'en',
    port: 8123,
    host: '0.0.0.0',
    max_entities: DEFAULT_MAX_ENTITIES,
    external_url: null,
    internal_url: null,
  });
  t.equal(config.hub.max_entities, 16384);
  t.equal(config.path, null);
  t.same(config.sections, {});
});

t.test('every hub field is read', async (t) => {
  const config = parseConfigText(
    [
      'hub:',
      '  name: Beach House',
      '  latitude: -33.9',
      '  longitude: 151.2',
      '  elevation: 12',
      '  unit_system: us_customary',
      '  time_zone: australia/sydney',
      '  currency: AUD',
      '  country: AU',
      '  language: en-au',
      '  port: 8200',
      '  host: 127.0.0.1',
      '  max_entities: 500',
      '  external_url: https://home.example.org/',
      '  internal_url: http://192.168.1.4:8200',
    ].join('\n'),
    null,
    VALIDATORS,
  );
  t.same(config.hub, {
    name: 'Beach House',
    latitude: -33.9,
    longitude: 151.2,
    elevation: 12,
    unit_system: 'us_customary',
    time_zone: 'Australia/Sydney',
    currency: 'AUD',
    country: 'AU',
    language: 'en-AU',
    port: 8200,
    host: '127.0.0.1',
    max_entities: 500,
    external_url: 'https://home.example.org',
    internal_url: 'http://192.168.1.4:8200',
  });
});

t.test('bad values are reported at the value, naming what is allowed', async (t) => {
  const issues = problems(
    [
      'hub:', //                    1
      '  latitude: 91', //           2
      '  longitude: -181', //        3
      '  elevation: high', //        4
      '  unit_system: british', //   5
      '  port: 0', //                6
      '  country: Netherlands', //   7
      '  currency: euro', //         8
      '  max_entities: lots', //     9
      '  external_url: hearth.local', // 10
    ].join('\n'),
  );
  t.same(where(issues), [
    '2:13 hub.latitude',
    '3:14 hub.longitude',
    '4:14 hub.elevation',
    '5:16 hub.unit_system',
    '6:9 hub.port',
    '7:12 hub.country',
    '8:13 hub.currency',
    '9:17 hub.max_entities',
    '10:17 hub.external_url',
  ]);
  const byKey = new Map(issues.map((i) => [String(i.path[1]), i.message]));
  t.equal(byKey.get('latitude'), '91 is not allowed: expected a number from -90 to 90');
  t.equal(byKey.get('longitude'), '-181 is not allowed: expected a number from -180 to 180');
  t.equal(byKey.get('elevation'), '"high" is not allowed: expected a number');
  t.equal(byKey.get('unit_system'), '"british" is not allowed: expected one of metric, us_customary, imperial');
  t.equal(byKey.get('port'), '0 is not allowed: expected an integer from 1 to 65535');
  t.match(byKey.get('country'), /expected an ISO 3166 two-letter country code/);
  t.match(byKey.get('currency'), /expected an ISO 4217 currency code/);
  t.match(byKey.get('external_url'), /expected an http:\/\/ or https:\/\/ URL/);
});

t.test('time zones are checked against the IANA database', async (t) => {
  t.equal(parseConfigText('hub:\n  time_zone: America/New_York\n', null, VALIDATORS).hub.time_zone, 'America/New_York');
  t.equal(parseConfigText('hub:\n  time_zone: UTC\n', null, VALIDATORS).hub.time_zone, 'UTC');
  t.equal(parseConfigText('hub:\n  time_zone: europe/amsterdam\n', null, VALIDATORS).hub.time_zone, 'Europe/Amsterdam', 'case corrected');
  const [bad] = problems('hub:\n  time_zone: Europe/Atlantis\n');
  t.equal(`${bad?.line}:${bad?.column}`, '2:14');
  t.match(bad?.message, /^"Europe\/Atlantis" is not allowed: expected an IANA time zone name such as Europe\/Amsterdam/);
  const [offset] = problems('hub:\n  time_zone: "+01:00"\n');
  t.match(offset?.message, /expected an IANA time zone name/);
  const [near] = problems('hub:\n  time_zone: Amsterdam\n');
  t.match(near?.message, /did you mean Europe\/Amsterdam\?/);
});

t.test('a currency is an ISO 4217 code in use, the ones Intl knows', async (t) => {
  for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'XCG']) {
    t.equal(parseConfigText(`hub:\n  currency: ${code}\n`, null, VALIDATORS).hub.currency, code);
  }
  for (const code of ['XYZ', 'DEM']) {
    const [bad] = problems(`hub:\n  currency: ${code}\n`);
    t.equal(bad?.message, `"${code}" is not allowed: expected an ISO 4217 currency code such as EUR or USD`, `${code}: none or no more`);
  }
});

t.test('unknown keys are reported at the key, listing the allowed ones', async (t) => {
  const issues = problems(
    ['hub:', '  name: Home', '  colour:', '    - red', 'gadgets: []', 'widgets:', '  - name: a', '    speed: 3'].join('\n'),
  );
  t.same(where(issues), ['3:3 hub.colour', '5:1 gadgets', '8:5 widgets.0.speed']);
  t.match(
    issues[0]?.message,
    /^unknown option; allowed: allowlist_external_dirs, .*country, currency, customize, .*elevation, external_url, host, /,
  );
  t.equal(
    issues[1]?.message,
    "unknown section; allowed: hub, widgets, or a Home Assistant integration's (accepted and ignored with a warning). Did you mean widgets?",
  );
  t.equal(issues[2]?.message, 'unknown option; allowed: mode, name');
});

t.test('a missing required key is reported at its parent mapping', async (t) => {
  const issues = problems(['widgets:', '  - name: ok', '  - mode: fast', '  -   mode: slow', '      note: x'].join('\n'));
  t.same(where(issues), ['3:5 widgets.1.name', '4:7 widgets.2.name', '5:7 widgets.2.note']);
  t.equal(issues[0]?.message, 'is required: expected a string');
});

t.test('problems about a whole section or list point at its key', async (t) => {
  const issues = problems(['hub:', '  - name', 'widgets:', '  name: x'].join('\n'));
  t.same(where(issues), ['1:1 hub', '3:1 widgets']);
  t.equal(issues[0]?.message, 'expected a mapping (key: value), got a list');
  t.equal(issues[1]?.message, 'expected a list of widgets');
});

t.test('every problem is listed at once, in file order', async (t) => {
  const issues = problems(
    ['widgets:', '  - mode: medium', 'hub:', '  latitude: north', '  port: -1', 'extra: 1', '  # comment', 'more: 2'].join('\n'),
  );
  t.same(where(issues), ['2:5 widgets.0.name', '2:11 widgets.0.mode', '4:13 hub.latitude', '5:9 hub.port', '6:1 extra', '8:1 more']);
});

t.test('a configuration that is not a mapping is one problem at 1:1', async (t) => {
  const issues = problems('- a\n- b\n');
  t.same(where(issues), ['1:1 ']);
  t.match(issues[0]?.message, /expected a mapping of sections/);
});

t.test('YAML syntax errors are reported with line and column, and stop validation', async (t) => {
  const dup = problems('hub:\n  name: A\n  name: B\nwidgets: 3\n');
  t.same(where(dup), ['3:3 '], 'only the syntax error: the content is not trusted');
  t.match(dup[0]?.message, /^YAML syntax error: Map keys must be unique/);

  const indent = problems('hub:\n  name: A\n latitude: 3\n');
  t.ok(indent.length >= 1);
  t.equal(indent[0]?.line, 3);
  t.match(indent[0]?.message, /^YAML syntax error: /);

  const flow = problems('hub: {name: A\n');
  t.match(flow[0]?.message, /^YAML syntax error: /);
});

t.test('unsupported tags and values JSON cannot hold are problems', async (t) => {
  const issues = problems(
    [
      'hub:',
      '  name: !input name',
      '  latitude: .inf',
      'widgets:',
      '  - name: !env_var HEARTH_TEST_UNSET',
      '  - name: !include x.yaml',
    ].join('\n'),
  );
  t.same(where(issues), ['2:9 ', '3:13 hub.latitude', '5:11 widgets.0.name', '6:11 widgets.1.name']);
  t.match(issues[0]?.message, 'unsupported tag !input; hearth supports !secret, !env_var and !include, !include_dir_list');
  t.match(issues[1]?.message, 'expected a finite number');
  t.match(issues[2]?.message, '!env_var HEARTH_TEST_UNSET: the environment variable is not set');
  t.match(issues[3]?.message, '!include x.yaml: included files are read beside the configuration file, and this configuration has no file');
});

t.test('values are plain JSON: anchors, aliases and merge keys are expanded', async (t) => {
  const config = parseConfigText(
    ['widgets:', '  - &base', '    name: a', '    mode: fast', '  - <<: *base', '    name: b', '  - *base'].join('\n'),
    null,
    VALIDATORS,
  );
  t.same(config.sections.widgets, [
    { name: 'a', mode: 'fast' },
    { name: 'b', mode: 'fast' },
    { name: 'a', mode: 'fast' },
  ]);
  t.equal(JSON.stringify(JSON.parse(JSON.stringify(config.sections))), JSON.stringify(config.sections));
  t.equal(Object.getPrototypeOf((config.sections.widgets as readonly object[])[0]), Object.prototype, 'plain objects, not YAML nodes');
});

t.test('a problem inside merged keys points at where the value is written', async (t) => {
  const issues = problems(['base: &b', '  mode: warp', 'widgets:', '  - <<: *b', '    name: x'].join('\n'), {
    ...VALIDATORS,
    base: () => {},
  });
  t.same(where(issues), ['2:9 widgets.0.mode']);
});

t.test('an alias bomb is refused as a problem, not a crash', async (t) => {
  const names = 'abcdefghi'.split('');
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  names.slice(1).forEach((name, i) => {
    lines.push(`${name}: &${name} [${Array(10).fill(`*${names[i]}`).join(', ')}]`);
  });
  const issues = problems(lines.join('\n'), { ...VALIDATORS, ...Object.fromEntries(names.map((k) => [k, () => {}])) });
  t.same(where(issues), ['1:1 ']);
  t.match(issues[0]?.message, /^cannot expand the document: .*alias/i);
});

t.test('ConfigFileError is a ConfigError whose message lists file:line:column: path: message', async (t) => {
  try {
    parseConfigText('hub:\n  port: x\n', '/etc/hearth/configuration.yaml', VALIDATORS, { displayPath: 'configuration.yaml' });
    t.fail('expected a ConfigError');
  } catch (err) {
    t.ok(err instanceof ConfigError);
    t.equal((err as Error).message, 'configuration.yaml:2:9: hub.port: "x" is not allowed: expected an integer from 1 to 65535');
  }
});

t.test('loadConfig reads a file, keeps the absolute path and shows the name as given', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(file, 'hub:\n  name: Flat\nwidgets:\n  - name: w\n');
  const config = await loadConfig(file, VALIDATORS);
  t.equal(config.hub.name, 'Flat');
  t.equal(config.path, file);
  t.same(config.sections.widgets, [{ name: 'w' }]);

  await writeFile(file, 'hub:\n  name: [x]\n');
  const rel = relative(process.cwd(), file);
  await t.rejects(loadConfig(rel, VALIDATORS), { message: `${rel}:2:3: hub.name: expected a string, got a list` });
  await t.rejects(loadConfig(join(dir, 'missing.yaml'), VALIDATORS), { code: 'ENOENT' });
});

t.test('the bundled demo configuration loads with every section validator', async (t) => {
  const config = await loadConfig(null, SECTION_VALIDATORS);
  t.equal(config.path, null);
  t.match(DEMO_CONFIG_PATH, /config[/\\]demo\.yaml$/);
  t.type(config.hub.name, 'string');
  t.ok(Array.isArray(config.sections.virtual) && config.sections.virtual.length > 0, 'it has virtual devices');
});

t.test('SECTION_VALIDATORS check the virtual section with positions', async (t) => {
  const issues = problems(
    ['virtual:', '  - platform: light', '    name: Desk', '    color_modes: [hs, plaid]'].join('\n'),
    SECTION_VALIDATORS,
  );
  t.ok(issues.length >= 1);
  t.equal(issues[0]?.line, 4);
  t.match(issues[0]?.path.slice(0, 3), ['virtual', 0, 'color_modes']);
});

t.test('a section under labelled keys is read once, merged; a problem is shown where the file has it', async (t) => {
  const validators: SectionValidators = {
    widgets: (value, path, issues) => {
      const items = Array.isArray(value) ? value : [];
      items.forEach((item, i) => {
        if (typeof item !== 'string') issues.push({ path: [...path, i], message: 'expected a name' });
      });
      return items.length;
    },
  };
  const text = 'widgets one:\n  - a\n  - b\nwidgets two:\n  - c\n  - 4\n';
  const found = problems(text, validators);
  t.same(where(found), ['6:5 widgets two.1'], 'the merged item 3 is the second item of `widgets two`');
  const config = readConfigText(text, null, validators);
  t.equal(config.parsed.get('widgets'), 4, 'the validator read the merged section once');
  t.match(config.problems, [{ section: 'widgets', sectionPath: ['widgets', 3], path: ['widgets two', 1] }]);
});

t.test('readConfigText returns the problems of parts, and throws on those of the document, hub: and required sections', async (t) => {
  const config = readConfigText('hub:\n  name: Home\nwidgets:\n  - {mode: fast}\nmystery: 1\n', null, VALIDATORS);
  t.equal(config.hub.name, 'Home');
  t.same(
    config.problems.map((p) => [p.section, p.message]),
    [
      ['widgets', 'is required: expected a string'],
      ['mystery', "unknown section; allowed: hub, widgets, or a Home Assistant integration's (accepted and ignored with a warning)."],
    ],
  );
  t.throws(() => readConfigText('hub:\n  port: x\nwidgets: []\n', null, VALIDATORS), { name: 'ConfigError', message: /hub\.port/ });
  t.throws(() => readConfigText('widgets: 3\n', null, VALIDATORS, { required: ['widgets'] }), { message: /widgets: expected a list/ });
  t.throws(
    () => parseConfigText('mystery: 1\n', null, VALIDATORS),
    { message: /unknown section/ },
    'the strict read throws on any problem',
  );
});
