import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { startTestHub } from '../helpers/hub.js';
import { tempDir } from '../storage/helpers.js';

/** Each reloadable domain: an item at start, one added later, one broken, and the entity ids they make. */
interface Part {
  readonly domain: string;
  readonly yaml: (items: readonly string[]) => string;
  readonly first: string;
  readonly added: string;
  readonly broken: string;
  readonly firstId: string;
  readonly addedId: string;
  /** What the persistent notification names the broken item by. */
  readonly brokenName: RegExp;
}

const list = (section: string, items: readonly string[]) => `${section}:\n${items.map((i) => `  - ${i}`).join('\n')}\n`;
const map = (section: string, items: readonly string[]) => `${section}:\n${items.map((i) => `  ${i}`).join('\n')}\n`;

const PARTS: readonly Part[] = [
  {
    domain: 'automation',
    yaml: (i) => list('automation', i),
    first: '{alias: One, triggers: [{trigger: event, event_type: one}], actions: []}',
    added: '{alias: Two, triggers: [{trigger: event, event_type: two}], actions: []}',
    broken: '{alias: Bad, triggers: [{trigger: nonsense}], actions: []}',
    firstId: 'automation.one',
    addedId: 'automation.two',
    brokenName: /automation\[2\] \(Bad\)/,
  },
  {
    domain: 'script',
    yaml: (i) => map('script', i),
    first: 's1: {sequence: []}',
    added: 's2: {sequence: []}',
    broken: 'bad_script: {sequence: [{delay: nope}]}',
    firstId: 'script.s1',
    addedId: 'script.s2',
    brokenName: /script\.bad_script/,
  },
  {
    domain: 'scene',
    yaml: (i) => list('scene', i),
    first: '{name: Sc1, entities: {light.kitchen: "on"}}',
    added: '{name: Sc2, entities: {light.kitchen: "off"}}',
    broken: '{name: BadScene, entities: 5}',
    firstId: 'scene.sc1',
    addedId: 'scene.sc2',
    brokenName: /scene\[2\] \(BadScene\)/,
  },
  {
    domain: 'template',
    yaml: (i) =>
      `template:\n  - sensor:\n${i.map((x) => `      - ${x}`).join('\n')}\nsensor:\n  - platform: template\n    sensors:\n      legacy1: {value_template: "a"}\n  - platform: time_date\n`,
    first: '{name: T1, state: "1"}',
    added: '{name: T2, state: "2"}',
    broken: '{name: BadT}',
    firstId: 'sensor.t1',
    addedId: 'sensor.t2',
    brokenName: /template\[0\]\.sensor\[2\] \(BadT\)/,
  },
  {
    domain: 'input_boolean',
    yaml: (i) => map('input_boolean', i),
    first: 'ib1: {name: IB1}',
    added: 'ib2: {name: IB2}',
    broken: 'bad_ib: {name: Bad, nonsense: 1}',
    firstId: 'input_boolean.ib1',
    addedId: 'input_boolean.ib2',
    brokenName: /input_boolean\.bad_ib/,
  },
  {
    domain: 'counter',
    yaml: (i) => map('counter', i),
    first: 'c1: {initial: 1}',
    added: 'c2: {initial: 2}',
    broken: 'bad_c: {nonsense: 1}',
    firstId: 'counter.c1',
    addedId: 'counter.c2',
    brokenName: /counter\.bad_c/,
  },
  {
    domain: 'timer',
    yaml: (i) => map('timer', i),
    first: 'tm1: {duration: "0:01:00"}',
    added: 'tm2: {duration: "0:02:00"}',
    broken: 'bad_t: {duration: nope}',
    firstId: 'timer.tm1',
    addedId: 'timer.tm2',
    brokenName: /timer\.bad_t/,
  },
  {
    domain: 'group',
    yaml: (i) => map('group', i),
    first: 'g1: {entities: [light.kitchen]}',
    added: 'g2: {entities: [light.hallway]}',
    broken: 'bad_g: {entities: 5}',
    firstId: 'group.g1',
    addedId: 'group.g2',
    brokenName: /group\.bad_g/,
  },
  {
    domain: 'zone',
    yaml: (i) => list('zone', i),
    first: '{name: Work, latitude: 52.3, longitude: 4.8}',
    added: '{name: School, latitude: 52.4, longitude: 4.9}',
    broken: '{name: Nowhere}',
    firstId: 'zone.work',
    addedId: 'zone.school',
    brokenName: /zone\[2\] \(Nowhere\)/,
  },
  {
    domain: 'person',
    yaml: (i) => list('person', i),
    first: '{id: p1, name: P1}',
    added: '{id: p2, name: P2}',
    broken: '{name: NoId}',
    firstId: 'person.p1',
    addedId: 'person.p2',
    brokenName: /person\[2\] \(NoId\)/,
  },
];

const HEAD = `hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  time_zone: Europe/Amsterdam
virtual:
  - {platform: light, id: kitchen, name: Kitchen}
  - {platform: light, id: hallway, name: Hallway}
`;

function file(items: (p: Part) => readonly string[]): string {
  return HEAD + PARTS.map((p) => p.yaml(items(p))).join('');
}

t.test('each reload service re-reads only its part; a broken item is named and left out, the rest reloaded', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'configuration.yaml');
  await writeFile(
    path,
    file((p) => [p.first]),
  );
  const { hub, wsUrl, token } = await startTestHub(t, { configFile: path });
  const core = hub.core;
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.ws.close());
  const reload = async (domain: string) => {
    const reply = await ws.command('call_service', { domain, service: 'reload', service_data: {} });
    t.equal(reply.success, true, `${domain}.reload succeeds`);
  };
  for (const p of PARTS) t.ok(core.states.get(p.firstId), `${p.firstId} at start`);
  t.ok(core.states.get('sensor.legacy1'), 'a legacy template sensor');

  const home = core.states.get('zone.home');
  // Every part gets a new item in the file; each reload brings only its own.
  await writeFile(
    path,
    file((p) => [p.first, p.added]),
  );
  for (const [i, p] of PARTS.entries()) {
    await reload(p.domain);
    t.ok(core.states.get(p.addedId), `${p.domain}.reload added ${p.addedId}`);
    for (const other of PARTS.slice(i + 1))
      t.equal(core.states.get(other.addedId), undefined, `${other.addedId} waits for ${other.domain}.reload`);
    for (const other of PARTS) t.ok(core.states.get(other.firstId), `${other.firstId} untouched`);
  }
  t.ok(core.states.get('sensor.legacy1'), 'template.reload keeps the legacy template sensors');
  t.equal(core.states.get('zone.home'), home, "zone.reload leaves the hub's zone.home as it was");

  // A broken item in each part: named in a notification, the others reloaded.
  await writeFile(
    path,
    file((p) => [p.first, p.added, p.broken]),
  );
  for (const p of PARTS) {
    await reload(p.domain);
    t.ok(core.states.get(p.firstId) && core.states.get(p.addedId), `${p.domain}: the good items are still there`);
    const note = core.notifications.get(`${p.domain}_reload_invalid_config`);
    t.match(note?.message, p.brokenName, `${p.domain}: the notification names the broken item`);
  }
  t.equal(core.states.get('automation.bad')?.state, 'unavailable', 'the broken automation shows, unavailable, as in HA');
  await writeFile(
    path,
    file((p) => [p.first]),
  );
  for (const p of PARTS) {
    await reload(p.domain);
    t.equal(core.states.get(p.addedId), undefined, `${p.addedId} removed`);
    if (p.domain === 'automation') t.equal(core.states.get('automation.bad'), undefined, 'the unavailable automation goes with it');
    t.equal(
      core.notifications.get(`${p.domain}_reload_invalid_config`),
      undefined,
      `${p.domain}: a clean reload dismisses the notification`,
    );
  }
});
