import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCli } from '../cli/cli-process.js';
import { startTestHub, type TestHub } from '../helpers/hub.js';

// Five folders, each checked by the real CLI and served by a hub: about 20 s on a quiet machine, more on a loaded one.
t.setTimeout(180_000);

/**
 * Home Assistant configuration folders as users have them (test/fixtures/ha-configs): the configuration.yaml Home
 * Assistant writes on a fresh install (2021's and 2024's), and three hand-written ones. Each passes check-config with
 * exit 0, each section of an integration hearth does not have named once as ignored; a hub started on each serves
 * the API with the configuration's entities, as Home Assistant would show them.
 */
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/ha-configs/${name}/configuration.yaml`, import.meta.url));

interface Case {
  readonly name: string;
  /** Sections named as ignored, each exactly once. */
  readonly ignored: readonly string[];
  /** Entity ids the hub must have. */
  readonly entities: readonly string[];
}

const CASES: readonly Case[] = [
  { name: 'default-2024', ignored: ['frontend'], entities: [] },
  { name: 'default-2021', ignored: ['tts'], entities: [] },
  {
    name: 'cottage',
    ignored: ['shell_command'],
    entities: [
      'input_boolean.guest_mode',
      'input_boolean.holiday',
      'input_boolean.alarm_armed',
      'input_boolean.porch_auto',
      'input_number.living_room_target',
      'input_number.bedroom_target',
      'counter.boiler_starts',
      'sensor.living_room_temperature',
      'automation.guests_arrive',
      'automation.porch_automatic_off_on_holiday',
      'script.goodnight',
    ],
  },
  {
    name: 'apartment',
    ignored: [
      'frontend',
      'config',
      'cloud',
      'ios',
      'map',
      'energy',
      'system_health',
      'wake_on_lan',
      'updater',
      'discovery',
      'tts',
      'shell_command',
      'browser_mod',
    ],
    entities: [
      'counter.coffee_cups',
      'timer.laundry',
      'input_select.scene_mode',
      'input_text.note',
      'input_datetime.alarm',
      'automation.coffee_cups_reset_at_night',
      'script.start_laundry',
      'scene.evening',
    ],
  },
  {
    name: 'house',
    ignored: [],
    entities: [
      'input_boolean.night_mode',
      'input_boolean.debug_mode',
      'counter.doorbell_rings',
      'sensor.house_power',
      'binary_sensor.anyone_in_night_mode',
      'automation.night_mode_at_23_00',
      'automation.night_mode_off_in_the_morning',
      'automation.count_rings_in_night_mode',
      'script.all_modes_off',
    ],
  },
];

type StateJson = { entity_id: string; state: string; attributes: Record<string, unknown> };

async function states(hub: TestHub): Promise<Map<string, StateJson>> {
  const res = await hub.api('/api/states');
  const list = (await res.json()) as StateJson[];
  return new Map(list.map((s) => [s.entity_id, s]));
}

for (const c of CASES) {
  t.test(`${c.name}: check-config exits 0, naming each ignored section once`, async (t) => {
    const file = fixture(c.name);
    const r = await runCli(['check-config', '--config', file]);
    t.equal(r.code, 0, r.stdout + r.stderr);
    t.match(r.stdout, /Configuration valid: /);
    for (const section of c.ignored) {
      const lines = r.stdout
        .split('\n')
        .filter((l) => new RegExp(`^warning: \\S+: (\\S+\\.)?${section}: .*the section is ignored$`).test(l));
      t.equal(lines.length, 1, `${section} is named once as ignored`);
    }
    t.equal(
      r.stdout.split('\n').filter((l) => l.includes('the section is ignored')).length,
      c.ignored.length,
      'no other section is ignored',
    );
  });

  t.test(`${c.name}: a hub serves it with its entities`, async (t) => {
    const hub = await startTestHub(t, { configFile: fixture(c.name) });
    const api = await hub.api('/api/');
    t.equal(api.status, 200);
    t.same(await api.json(), { message: 'API running.' });
    const have = await states(hub);
    for (const id of c.entities) t.ok(have.has(id), `${id} exists`);
  });
}

t.test('cottage: YAML 1.1 booleans, customize, packages and the core keys as Home Assistant reads them', async (t) => {
  const hub = await startTestHub(t, { configFile: fixture('cottage') });
  const have = await states(hub);
  const s = (id: string) => have.get(id) as StateJson;
  // initial: off / "on" / yes, and `initial: on` in a package.
  t.equal(s('input_boolean.guest_mode').state, 'off');
  t.equal(s('input_boolean.holiday').state, 'on');
  t.equal(s('input_boolean.alarm_armed').state, 'on');
  t.equal(s('input_boolean.porch_auto').state, 'on');
  // customize: an entity's own over its domain's; a glob; a package's customize.
  t.match(s('input_boolean.guest_mode').attributes, {
    friendly_name: 'Guests staying',
    icon: 'mdi:account-multiple',
    assumed_state: false,
  });
  t.match(s('input_boolean.alarm_armed').attributes, { friendly_name: 'Alarm armed', icon: 'mdi:shield-home', assumed_state: false });
  t.match(s('sensor.living_room_temperature').attributes, { friendly_name: 'Lounge temperature', hidden: true, icon: 'mdi:thermometer' });
  t.match(s('input_boolean.porch_auto').attributes, { icon: 'mdi:outdoor-lamp' });
  const config = (await (await hub.api('/api/config')).json()) as Record<string, unknown>;
  t.match(config, {
    location_name: 'Cottage',
    latitude: 51.5072,
    longitude: -0.1276,
    elevation: 15,
    time_zone: 'Europe/London',
    currency: 'GBP',
    country: 'GB',
    language: 'en-GB',
    external_url: 'https://cottage.example.org',
    internal_url: 'http://192.168.1.20:8123',
    allowlist_external_dirs: ['/tmp'],
  });
});

t.test('apartment: us_customary units, a YAML 1.1 off in a string field, customize', async (t) => {
  const hub = await startTestHub(t, { configFile: fixture('apartment') });
  const have = await states(hub);
  t.equal(have.get('input_text.note')?.state, 'False', "cv.string of PyYAML's False");
  t.equal(have.get('counter.coffee_cups')?.attributes.icon, 'mdi:coffee');
  const config = (await (await hub.api('/api/config')).json()) as { unit_system: { temperature: string } };
  t.equal(config.unit_system.temperature, '°F');
});

t.test('house: a package in a folder merged by !include_dir_merge_named, with its customize', async (t) => {
  const hub = await startTestHub(t, { configFile: fixture('house') });
  const have = await states(hub);
  t.equal(have.get('counter.doorbell_rings')?.attributes.friendly_name, 'Rings at the door');
  t.equal(have.get('input_boolean.night_mode')?.attributes.icon, 'mdi:toggle-switch', 'customize_glob');
  t.equal(have.get('input_boolean.debug_mode')?.state, 'off', 'initial: no');
});
