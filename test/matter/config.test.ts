// The `matter:` section: defaults, the filter (the same keys as homekit:), and each bad field named.
import t from 'tap';
import type { ConfigIssue } from '../../src/config/reader.js';
import { parseMatter } from '../../src/matter/config.js';
import { kindFor } from '../../src/matter/devices.js';

t.test('an empty section runs a bridge on Matter port 5540 with every entity', async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseMatter(null, ['matter'], issues);
  t.same(issues, []);
  t.equal(config.port, 5540);
  t.equal(config.name, 'hearth Matter Bridge');
  t.equal(config.passcode, undefined, 'a passcode is generated unless set');
});

t.test('the filter, names, a fixed passcode and discriminator', async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseMatter(
    {
      name: 'Home',
      port: 5541,
      passcode: 20202021,
      discriminator: 3840,
      filter: { include_domains: ['light'], exclude_entities: ['light.x'] },
      entity_config: { 'light.kitchen': { name: 'Kitchen Lamp' } },
    },
    ['matter'],
    issues,
  );
  t.same(issues, []);
  t.same(config.filter.include.domains, ['light']);
  t.same(config.filter.exclude.entities, ['light.x']);
  t.equal(config.names.get('light.kitchen'), 'Kitchen Lamp');
  t.equal(config.passcode, 20202021);
  t.equal(config.discriminator, 3840);
});

t.test('bad fields are named with what is allowed', async (t) => {
  const issues: ConfigIssue[] = [];
  parseMatter({ port: 70000, passcode: 12345678, discriminator: 5000, colour: 1, name: '' }, ['matter'], issues);
  t.same(
    issues.map((i) => [i.path.join('.'), i.message]),
    [
      ['matter.colour', 'unknown key; allowed: name, port, filter, entity_config, passcode, discriminator'],
      ['matter.name', 'expected a name of 1 to 32 characters'],
      ['matter.port', 'expected a port number from 0 to 65535'],
      ['matter.passcode', 'expected a number from 1 to 99999998, not a trivial one like 11111111 or 12345678'],
      ['matter.discriminator', 'expected a number from 0 to 4095'],
    ],
  );
  const list: ConfigIssue[] = [];
  parseMatter(['a'], ['matter'], list);
  t.match(list[0]?.message, /expected a mapping/);
});

t.test('domains without a Matter device type are not bridged', async (t) => {
  const lib = { devices: {}, behaviors: {} } as unknown as Parameters<typeof kindFor>[0];
  const state = { entity_id: 'select.x', state: 'a', attributes: {} } as unknown as Parameters<typeof kindFor>[2];
  t.equal(kindFor(lib, 'select.x', state), undefined);
});
