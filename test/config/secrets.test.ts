import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ConfigFileError, type LocatedIssue, loadConfig, type SectionValidators } from '../../src/config/load.js';
import { ConfigReader } from '../../src/config/reader.js';
import { fileProblems } from './problems.js';

const VALIDATORS: SectionValidators = {
  mqtt: (value, path, issues) => {
    const r = ConfigReader.of(value, path, issues);
    r.string('password', { required: true });
    r.number('port', { integer: true, min: 1, max: 65535 });
    r.string('token', { pattern: /^[a-f0-9]+$/, patternText: 'hex digits' });
    r.child('tls');
    r.rejectUnknown();
  },
};

async function configDir(t: { teardown(fn: () => unknown): void }, config: string, secrets?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-secrets-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'configuration.yaml'), config);
  if (secrets !== undefined) await writeFile(join(dir, 'secrets.yaml'), secrets);
  return join(dir, 'configuration.yaml');
}

const problems = (file: string): Promise<readonly LocatedIssue[]> => fileProblems(file, VALIDATORS);

t.test('!secret values come from secrets.yaml beside the configuration', async (t) => {
  const file = await configDir(
    t,
    [
      'hub:',
      '  name: !secret home_name',
      '  latitude: !secret lat',
      'mqtt:',
      '  password: !secret mqtt_password',
      '  port: !secret mqtt_port',
      '  tls: !secret tls',
    ].join('\n'),
    [
      'home_name: Secret Garden',
      'lat: 51.5',
      'mqtt_password: "hunter2"',
      'mqtt_port: 8883',
      'tls:',
      '  ca: /etc/ssl/ca.pem',
      '  verify: true',
      'unused: 1',
    ].join('\n'),
  );
  const config = await loadConfig(file, VALIDATORS);
  t.equal(config.hub.name, 'Secret Garden');
  t.equal(config.hub.latitude, 51.5);
  t.same(config.sections.mqtt, { password: 'hunter2', port: 8883, tls: { ca: '/etc/ssl/ca.pem', verify: true } });
});

t.test('a secret missing from secrets.yaml is reported at the tag, naming the ones defined', async (t) => {
  const file = await configDir(t, ['mqtt:', '  password: !secret mqtt_pasword', ''].join('\n'), 'mqtt_password: x\nwifi: y\n');
  const [issue, ...rest] = await problems(file);
  t.same(rest, []);
  t.equal(issue?.file, file);
  t.equal(`${issue?.line}:${issue?.column}`, '2:13', 'the position of "!secret"');
  t.same(issue?.path, ['mqtt', 'password']);
  t.equal(issue?.message, `!secret mqtt_pasword is not defined in ${join(file, '..', 'secrets.yaml')}; defined: mqtt_password, wifi`);
});

t.test('a missing secrets.yaml is reported at every tag that needs it', async (t) => {
  const file = await configDir(t, ['hub:', '  name: !secret a', 'mqtt:', '  password:   !secret b'].join('\n'));
  const issues = await problems(file);
  t.same(
    issues.map((i) => `${i.line}:${i.column}`),
    ['2:9', '4:15'],
  );
  for (const i of issues) t.match(i.message, /secrets\.yaml not found; create it beside the configuration/);
});

t.test('!secret without a name, or on a list, is a problem', async (t) => {
  const file = await configDir(t, ['hub:', '  name: !secret', 'mqtt:', '  password: !secret [a, b]'].join('\n'), 'a: 1\n');
  const issues = await problems(file);
  t.same(
    issues.map((i) => `${i.line}:${i.column}`),
    ['2:9', '4:13'],
  );
  t.match(issues[0]?.message, /!secret needs a secret name/);
  t.match(issues[1]?.message, /!secret takes a secret name/);
});

t.test('syntax errors in secrets.yaml are reported in secrets.yaml, and at the tags', async (t) => {
  const file = await configDir(t, 'mqtt:\n  password: !secret p\n', 'p: one\np: two\n');
  const issues = await problems(file);
  const secretsFile = join(file, '..', 'secrets.yaml');
  t.same(
    issues.map((i) => `${i.file === secretsFile ? 'secrets' : 'config'} ${i.line}:${i.column}`),
    ['config 2:13', 'secrets 2:1'],
  );
  t.match(issues[1]?.message, /Map keys must be unique/);
});

t.test('a problem with a secret value names the secret, never its value', async (t) => {
  const file = await configDir(t, 'mqtt:\n  password: !secret p\n  token: !secret tok\n', 'p: ok\ntok: "S3CRET-value"\n');
  const issues = await problems(file);
  t.equal(issues.length, 1);
  t.equal(`${issues[0]?.line}:${issues[0]?.column}`, '3:18');
  t.equal(issues[0]?.message, '<secret tok> is not allowed: expected hex digits');
  t.notMatch(JSON.stringify(issues), /S3CRET/);
});

t.test('a configuration given as text (no file) cannot use secrets', async (t) => {
  const { parseConfigText } = await import('../../src/config/load.js');
  const err = (() => {
    try {
      parseConfigText('hub:\n  name: !secret n\n', null, VALIDATORS);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  t.ok(err instanceof ConfigFileError);
  t.match((err as ConfigFileError).issues, [
    { line: 2, column: 9, message: /secrets are read from secrets\.yaml beside the configuration file/ },
  ]);
  t.equal((err as ConfigFileError).issues.length, 1);
});
