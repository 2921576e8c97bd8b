import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from './cli-process.js';

async function tempConfig(t: { teardown(fn: () => unknown): void }, text: string, secrets?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-cli-check-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(file, text);
  if (secrets !== undefined) await writeFile(join(dir, 'secrets.yaml'), secrets);
  return file;
}

t.test('a valid configuration: "Configuration valid: FILE" and exit 0', async (t) => {
  const file = await tempConfig(
    t,
    ['hub:', '  name: !secret home_name', '  time_zone: Europe/Amsterdam', 'virtual:', '  - platform: switch', '    name: Pump', ''].join(
      '\n',
    ),
    'home_name: Our House\n',
  );
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.equal(r.stdout, `Configuration valid: ${file}\n`);
  t.equal(r.stderr, '');
});

t.test('every problem is printed as file:line:column: path: message with the allowed values; exit 1', async (t) => {
  const text = [
    'hub:', //                          1
    '  latitude: 123', //                2
    '  unit_system: british', //         3
    '  time_zone: Mars/Olympus_Mons', // 4
    '  colour: blue', //                 5
    'virtual:', //                       6
    '  - platform: lamp', //             7
    '    name: Desk', //                 8
    '  - platform: light', //            9
    '    id: porch', //                 10
    'wether:', //                       11
    '  city: Amsterdam', //             12
    '',
  ].join('\n');
  const file = await tempConfig(t, text);
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 1);
  const lines = r.stdout.trimEnd().split('\n');
  t.same(
    lines.slice(0, -1).map((l) =>
      l
        .slice(file.length + 1)
        .split(':')
        .slice(0, 3)
        .join(':'),
    ),
    [
      '2:13: hub.latitude',
      '3:16: hub.unit_system',
      '4:14: hub.time_zone',
      '5:3: hub.colour',
      '7:15: virtual[0].platform',
      '9:5: virtual[1].name',
      '11:1: wether',
    ],
    'each problem at its line and column, in file order',
  );
  t.match(r.stdout, `${file}:2:13: hub.latitude: 123 is not allowed: expected a number from -90 to 90`);
  t.match(r.stdout, 'expected one of metric, us_customary');
  t.match(r.stdout, /expected an IANA time zone name/);
  t.match(r.stdout, /hub\.colour: unknown option; allowed: allowlist_external_dirs, .*country, currency, /);
  t.match(
    r.stdout,
    /virtual\[0\]\.platform: "lamp" is not allowed: expected one of [a-z_, ]*light[a-z_, ]*switch/,
    'driver sections are checked too',
  );
  t.match(r.stdout, /virtual\[1\]\.name: is required/);
  // A typo of one of Home Assistant's integrations (`weather:` itself would be accepted and ignored).
  t.match(r.stdout, /wether: unknown section; allowed: hub, [a-z0-9_, ]*virtual.* Did you mean weather\?/);
  t.equal(lines.at(-1), `7 problems in ${file}`);
  t.notMatch(r.stdout + r.stderr, /\n\s+at /, 'no stack trace');
});

t.test('YAML syntax errors have positions too', async (t) => {
  const file = await tempConfig(t, 'hub:\n  name: Home\n  name: Again\n');
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 1);
  t.match(r.stdout, `${file}:3:3: YAML syntax error: Map keys must be unique`);
});

t.test('a missing file exits 1 with a message; a missing --config is a usage error', async (t) => {
  const missing = await runCli(['check-config', '--config', join(tmpdir(), 'hearth-no-such-dir', 'configuration.yaml')]);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /cannot read the configuration .*configuration\.yaml: no such file/);
  t.notMatch(missing.stderr, /\n\s+at /);

  const noFlag = await runCli(['check-config']);
  t.equal(noFlag.code, 2);
  t.match(noFlag.stderr, /--config is required/);
  t.match(noFlag.stderr, /Usage: hearth check-config --config FILE/);
});
