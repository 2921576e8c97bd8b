import t from 'tap';
import type { Domain } from '../../src/domains/domain.js';
import { DOMAINS, domainByName } from '../../src/domains/index.js';

type Fact = 'restored' | 'published' | 'adopted' | 'significantAttributes' | 'needsAttributes';

/** What each fact held when it was a list of its own (restore policy, MQTT publisher and adopter, history). */
const EXPECTED: Readonly<Record<Fact, readonly string[]>> = {
  restored: [
    'alarm_control_panel',
    'automation',
    'button',
    'climate',
    'counter',
    'cover',
    'fan',
    'input_boolean',
    'input_button',
    'input_datetime',
    'input_number',
    'input_select',
    'input_text',
    'light',
    'lock',
    'media_player',
    'switch',
    'timer',
  ],
  published: [
    'alarm_control_panel',
    'binary_sensor',
    'button',
    'climate',
    'cover',
    'fan',
    'light',
    'lock',
    'number',
    'select',
    'sensor',
    'switch',
  ],
  adopted: ['binary_sensor', 'button', 'climate', 'cover', 'fan', 'light', 'lock', 'number', 'select', 'sensor', 'switch'],
  significantAttributes: ['climate', 'device_tracker', 'humidifier', 'thermostat', 'water_heater'],
  needsAttributes: ['climate', 'humidifier', 'input_datetime', 'thermostat', 'water_heater'],
};

const NAMES = [...DOMAINS.map((d) => d.name), 'humidifier', 'thermostat', 'water_heater'];

t.test('each domain fact is on the domain, read through the registry', async (t) => {
  for (const [fact, expected] of Object.entries(EXPECTED) as [Fact, readonly string[]][]) {
    const holders = NAMES.filter((n) => (domainByName(n) as Domain)[fact] === true).sort();
    t.same(holders, [...expected].sort(), fact);
  }
});

t.test('an unknown or hostile domain name has no facts', async (t) => {
  for (const name of ['weather', '__proto__', 'constructor', '']) t.equal(domainByName(name), undefined, name);
});

t.test('state-only domains register no services', async (t) => {
  const registered = new Set(DOMAINS.map((d) => d.name));
  for (const name of ['humidifier', 'thermostat', 'water_heater']) t.notOk(registered.has(name), name);
});
