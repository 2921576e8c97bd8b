import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig, parseConfigText, readConfigText } from '../../src/config/load.js';
import { ConfigReader } from '../../src/config/reader.js';
import type { JsonObject } from '../../src/core/json.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';

/** Reads the value of `x:` as the loader reads it. */
function yamlValue(text: string): JsonObject {
  const config = parseConfigText(`x:\n${text}`, null, { x: (v) => v });
  return config.parsed.get('x') as JsonObject;
}

t.test('YAML 1.1 booleans, as PyYAML reads them for Home Assistant', async (t) => {
  const v = yamlValue(
    ['  a: off', '  b: "on"', '  c: yes', '  d: NO', '  e: On', '  f: y', '  g: n', '  h: True', '  i: "off"'].join('\n'),
  );
  t.same(v, { a: false, b: 'on', c: true, d: false, e: true, f: 'y', g: 'n', h: true, i: 'off' });
});

t.test("a field's reader follows Home Assistant's cv.boolean and cv.string", async (t) => {
  const r = new ConfigReader({ a: 'on', b: 'disable', c: 1, d: false, e: 'sometimes', mode: false, also: true }, ['x'], []);
  t.equal(r.boolean('a', false), true);
  t.equal(r.boolean('b', true), false);
  t.equal(r.boolean('c', false), true);
  t.equal(r.string('d'), 'False', "PyYAML's False through cv.string");
  t.equal(r.boolean('e', true), true, 'the default after a problem');
  t.match(r.issues[0]?.message, /"sometimes" is not allowed: expected true or false/);
  t.equal(r.oneOf('mode', ['last', 'on', 'off'] as const), 'off', 'an unquoted off where the options are words');
  t.equal(r.oneOf('also', ['last', 'on', 'off'] as const), 'on');
});

t.test("a Home Assistant integration's section is accepted with one warning; an unknown one is a problem with a suggestion", async (t) => {
  const text = [
    'frontend:',
    '  themes: {}',
    'tts:',
    '  - platform: google_translate',
    'tts extra:',
    '  - platform: cloud',
    'automaton: []',
    '',
  ].join('\n');
  const config = readConfigText(text, null, SECTION_VALIDATORS);
  t.same(
    (config.warnings ?? []).map((w) => `${w.line}:${w.column} ${w.path.join('.')}: ${w.message}`),
    [
      "1:1 frontend: Home Assistant's frontend integration is not part of hearth; the section is ignored",
      "3:1 tts: Home Assistant's tts integration is not part of hearth; the section is ignored",
    ],
  );
  t.equal(config.problems.length, 1);
  const [p] = config.problems;
  t.equal(`${p?.line}:${p?.column} ${p?.section}`, '7:1 automaton');
  t.match(p?.message, /^unknown section; allowed: hub, .*automation, .*Did you mean automation\?$/);
  t.throws(() => parseConfigText(text, null, SECTION_VALIDATORS), { name: 'ConfigError', message: /automaton/ }, 'check-config refuses it');
});

t.test('a custom integration (custom_components/<name>) is ignored with a warning, a typo of one is not', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-ha-sections-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'custom_components', 'hacs'), { recursive: true });
  await writeFile(join(dir, 'custom_components', 'hacs', 'manifest.json'), '{"domain": "hacs"}');
  await writeFile(join(dir, 'configuration.yaml'), 'hacs:\n  token: x\n');
  const config = await loadConfig(join(dir, 'configuration.yaml'), SECTION_VALIDATORS);
  t.match(config.warnings?.[0]?.message, /hacs is a custom integration \(custom_components\/hacs\)/);
  await writeFile(join(dir, 'configuration.yaml'), 'hacss:\n  token: x\n');
  await t.rejects(loadConfig(join(dir, 'configuration.yaml'), SECTION_VALIDATORS), {
    message: /configuration.yaml:1:1: hacss: unknown section/,
  });
});

t.test('http: server_port and server_host are where the hub listens; hub: port stays an alias', async (t) => {
  t.equal(parseConfigText('http:\n  server_port: 8300\n', null, SECTION_VALIDATORS).hub.port, 8300);
  t.equal(parseConfigText('homeassistant:\n  name: x\nhttp:\n  server_host: 127.0.0.1\n', null, SECTION_VALIDATORS).hub.host, '127.0.0.1');
  t.equal(parseConfigText('hub:\n  port: 8400\n', null, SECTION_VALIDATORS).hub.port, 8400);
  const config = readConfigText('http:\n  cors_allowed_origins:\n    - https://example.org\n', null, SECTION_VALIDATORS);
  t.same(config.warnings ?? [], [], 'cors_allowed_origins is honoured (test/http/cors.test.ts), so no warning');
  const framed = readConfigText('http:\n  use_x_frame_options: false\n', null, SECTION_VALIDATORS);
  t.match(framed.warnings?.[0]?.message, /use_x_frame_options.*not honoured|not honoured.*frame/);
  t.throws(() => parseConfigText('http:\n  server_port: high\n', null, SECTION_VALIDATORS), {
    message: /http.server_port: "high" is not allowed: expected an integer from 1 to 65535/,
  });
  t.throws(() => parseConfigText('http:\n  sever_port: 8123\n', null, SECTION_VALIDATORS), {
    message: /http.sever_port: unknown option; allowed: .*server_port/,
  });
});

t.test('recorder: db_url accepted with a warning that never repeats it', async (t) => {
  const config = readConfigText('recorder:\n  db_url: mysql://user:secret@db/ha\n  purge_keep_days: 3\n', null, SECTION_VALIDATORS);
  t.same(config.problems, []);
  t.match(config.warnings?.[0], { line: 2, message: /db_url.*|accepted and not honoured/ });
  t.notMatch(JSON.stringify(config.warnings), /secret/);
});

t.test('a bad customize entry or package leaves that entry out and the hub starts; a bad hub key stops it', async (t) => {
  const text = [
    'homeassistant:',
    '  customize:',
    '    Not An Id: {icon: "mdi:x"}',
    '    light.ok: {icon: "mdi:y"}',
    '  packages:',
    '    "bad.name": {}',
    '',
  ].join('\n');
  const config = readConfigText(text, null, SECTION_VALIDATORS);
  t.same(
    config.problems.map((p) => `${p.line} ${p.section}: ${p.message}`),
    [
      '3 core_config: "Not An Id" is not allowed: expected an entity id such as light.kitchen',
      '6 core_config: "bad.name" is not allowed: expected a package name of letters, digits, _, - and spaces',
    ],
  );
  t.same([...(config.core?.customize.exact.keys() ?? [])], ['light.ok']);
  t.throws(() => readConfigText('homeassistant:\n  latitude: 100\n', null, SECTION_VALIDATORS), { message: /homeassistant.latitude/ });
});
