import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { virtualIntegration } from '../../drivers/index.js';
import { seededRandom } from '../../drivers/virtual/index.js';
import { loadConfig } from '../../src/config/load.js';
import { isoFromMicros } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { addSwitch, type SwitchPlatform, switchDomain } from '../../src/domains/switch.js';
import { Hub, SECTION_VALIDATORS } from '../../src/hub.js';
import type { AnyIntegration } from '../../src/integration/integration.js';
import { RestoreState } from '../../src/restore/restore-state.js';
import { INTEGRATIONS, withIntegrations } from '../../src/sections.js';
import { WsClient, type WsMessage } from '../api/ws/client.js';
import type { Teardown } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

// Finding 1 of issue 32: after a restart, a restored entity's history ended on its provider's stale first
// report (`5.0 → 5.0 → 0.0`; a light `on → off` at the same millisecond), because the stored state was
// re-applied from inside the first report's state_changed handler and later listeners got the two backwards.

/** The assertions the checks below use. */
type Asserts = Pick<typeof t, 'equal' | 'same' | 'ok' | 'fail'>;

const LIGHT = 'light.desk';
const NUMBER = 'input_number.target';

function configYaml(withNumber: boolean): string {
  return `
hub:
  name: Order Home
  time_zone: UTC
  restore_flush_s: 0.1
virtual:
  - {platform: light, id: desk, name: Desk, color_modes: [brightness]}
${withNumber ? 'input_number:\n  target: {name: Target, min: 0, max: 10, step: 0.5}\n' : ''}
automation:
  - id: watch
    alias: Watch
    mode: queued
    max: 100
    triggers:
      - {trigger: state, entity_id: [${LIGHT}, ${NUMBER}]}
    actions:
      - event: seen
        event_data:
          entity_id: "{{ trigger.entity_id }}"
          from: "state:{{ trigger.from_state.state if trigger.from_state else 'none' }}"
          to: "state:{{ trigger.to_state.state if trigger.to_state else 'none' }}"
`;
}

/** The virtual driver, starting only once `gate` resolves (a device that answers after the API is up). */
function gatedIntegrations(gate: Promise<void>): AnyIntegration[] {
  const gated: typeof virtualIntegration = {
    ...virtualIntegration,
    create(ctx, config) {
      const driver = virtualIntegration.create(ctx, config);
      if (driver === undefined) return undefined;
      const start = driver.start.bind(driver);
      driver.start = async () => {
        await gate;
        await start();
      };
      return driver;
    },
  };
  return withIntegrations(INTEGRATIONS, gated as unknown as AnyIntegration);
}

interface Home {
  readonly hub: Hub;
  readonly url: string;
  readonly token: string;
  api(path: string, init?: RequestInit): Promise<Response>;
  call(domain: string, service: string, data: JsonObject): Promise<unknown>;
}

async function startHome(dataDir: string, configPath: string, gate?: Promise<void>): Promise<Home> {
  const hub = await Hub.start({
    config: await loadConfig(configPath, SECTION_VALIDATORS),
    dataDir,
    log: silentLogger,
    host: '127.0.0.1',
    port: 0,
    random: seededRandom(7),
    ...(gate === undefined ? {} : { integrations: gatedIntegrations(gate), startTimeoutMs: 50 }),
  });
  const owner = await hub.auth.ensureOwner('Owner');
  const token = await hub.auth.createToken(owner.id, `order-${Math.random().toString(36).slice(2)}`);
  const url = `http://127.0.0.1:${hub.port}`;
  return {
    hub,
    url,
    token,
    api: (path, init = {}) => fetch(url + path, { ...init, headers: { authorization: `Bearer ${token}` } }),
    call: (domain, service, data) => hub.core.services.call(domain, service, data),
  };
}

/** A timestamp as Home Assistant writes it, in µs (Date.parse drops everything below the millisecond). */
function micros(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return Date.parse(iso.replace(/\.\d+/, '')) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

interface Row {
  readonly state: string;
  readonly last_updated: string;
  readonly attributes: JsonObject;
}

/** The entity's rows as /api/history/period returns them, every row (not only the significant ones). */
async function historyOf(home: Home, entityId: string, sinceUs: number): Promise<Row[]> {
  const res = await home.api(
    `/api/history/period/${encodeURIComponent(isoFromMicros(sinceUs))}?filter_entity_id=${entityId}&significant_changes_only=0`,
  );
  if (res.status !== 200) throw new Error(`history: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Row[][];
  return body[0] ?? [];
}

/** The history tells one story that ends where the entity is: in time order, no two states at one millisecond. */
function checkRows(t: Asserts, rows: readonly Row[], current: State, label: string): void {
  const last = rows.at(-1);
  t.equal(last?.state, current.state, `${label}: the last row is the current state`);
  // The recorder keeps milliseconds.
  t.equal(
    Math.floor(micros(last?.last_updated ?? '') / 1000),
    Math.floor(current.lastUpdatedUs / 1000),
    `${label}: the last row is the current state's write`,
  );
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1] as Row;
    const b = rows[i] as Row;
    const at = (r: Row) => micros(r.last_updated);
    if (at(b) < at(a))
      t.fail(`${label}: row ${i} (${b.state} at ${b.last_updated}) is older than the one before (${a.state} at ${a.last_updated})`);
    if (Math.floor(at(a) / 1000) === Math.floor(at(b) / 1000) && a.state !== b.state) {
      t.fail(`${label}: ${a.state} and ${b.state} at the same millisecond (${b.last_updated})`);
    }
  }
}

/** A subscriber's state_changed events of one entity follow from each other and end on the current state. */
function checkEvents(t: Asserts, events: readonly WsMessage[], entityId: string, current: State, label: string): void {
  type Data = { entity_id: string; old_state: JsonObject | null; new_state: JsonObject | null };
  const mine = events.map((m) => (m.event as { event_type: string; data: Data }).data).filter((d) => d.entity_id === entityId);
  t.ok(mine.length > 0, `${label}: the subscriber saw the entity come back`);
  for (let i = 1; i < mine.length; i++) {
    const before = (mine[i - 1] as Data).new_state;
    const old = (mine[i] as Data).old_state;
    t.same(
      old === null ? null : { state: old.state, last_updated: old.last_updated },
      before === null ? null : { state: before.state, last_updated: before.last_updated },
      `${label}: event ${i} starts where event ${i - 1} ended`,
    );
  }
  const last = mine.at(-1)?.new_state;
  t.equal(last?.state, current.state, `${label}: the last event is the current state`);
  t.equal(last?.last_updated, isoFromMicros(current.lastUpdatedUs), `${label}: the last event is the current state's write`);
}

/** What the automation saw of one entity: each trigger starts where the one before ended, the last is the current state. */
function checkTriggers(t: Asserts, seen: readonly JsonObject[], entityId: string, current: State, label: string): void {
  const mine = seen.filter((d) => d.entity_id === entityId);
  t.ok(mine.length > 0, `${label}: the automation saw the entity come back`);
  for (let i = 1; i < mine.length; i++) {
    t.equal(
      mine[i]?.from,
      mine[i - 1]?.to,
      `${label}: trigger ${i} (${mine[i]?.from} → ${mine[i]?.to}) starts where trigger ${i - 1} ended`,
    );
  }
  t.equal(mine.at(-1)?.to, `state:${current.state}`, `${label}: the last trigger is the current state`);
}

async function tempDirs(t: Teardown): Promise<{ dataDir: string; configPath: string }> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-restore-order-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  return { dataDir: join(root, 'data'), configPath: join(root, 'configuration.yaml') };
}

/** The first run: what the user sets, to be brought back by every later one. */
async function firstRun(dataDir: string, configPath: string): Promise<void> {
  await writeFile(configPath, configYaml(true));
  const home = await startHome(dataDir, configPath);
  await home.call('input_number', 'set_value', { entity_id: NUMBER, value: 5 });
  await home.call('light', 'turn_on', { entity_id: LIGHT, brightness: 100 });
  await home.hub.stop();
}

t.test('after each restart the history of a restored helper and light ends on their state, in order', async (t) => {
  const { dataDir, configPath } = await tempDirs(t);
  const sinceUs = Date.now() * 1000 - 60_000_000;
  await firstRun(dataDir, configPath);
  const restartUs = Date.now() * 1000;
  for (let run = 1; run <= 3; run++) {
    const home = await startHome(dataDir, configPath);
    t.teardown(() => home.hub.stop());
    const { core } = home.hub;
    const number = await waitForState(core, NUMBER, (s) => s.attributes.restored === undefined);
    const light = await waitForState(core, LIGHT, (s) => s.attributes.restored === undefined);
    t.equal(number.state, '5.0', `restart ${run}: the helper has its value back`);
    t.equal(light.state, 'on', `restart ${run}: the light is on again`);
    t.equal(light.attributes.brightness, 100);
    const numberRows = await historyOf(home, NUMBER, sinceUs);
    checkRows(t, numberRows, number, `restart ${run}, ${NUMBER}`);
    checkRows(t, await historyOf(home, LIGHT, sinceUs), light, `restart ${run}, ${LIGHT}`);
    t.notOk(
      numberRows.some((r) => r.state === '0.0' && micros(r.last_updated) >= restartUs),
      `restart ${run}: the helper's default before its restore is never published`,
    );
    await home.hub.stop();
  }
});

t.test('WebSocket subscribers, automations and history see one sequence when a restored entity comes back', async (t) => {
  const { dataDir, configPath } = await tempDirs(t);
  const sinceUs = Date.now() * 1000 - 60_000_000;
  await firstRun(dataDir, configPath);

  // The light's driver answers only once a subscriber and the automation listen.
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const home = await startHome(dataDir, configPath, gate);
  t.teardown(() => home.hub.stop());
  const { core } = home.hub;
  const client = await WsClient.authenticated(`ws://127.0.0.1:${home.hub.port}/api/websocket`, home.token);
  t.teardown(() => client.close());
  const sub = await client.command('subscribe_events', { event_type: 'state_changed' });
  t.equal(sub.success, true);
  const seenSub = await client.command('subscribe_events', { event_type: 'seen' });
  t.equal(seenSub.success, true);
  const sentinelSub = await client.command('subscribe_events', { event_type: 'test_sentinel' });
  t.equal(sentinelSub.success, true);

  /** Waits until the automation ran for everything so far and the socket delivered everything before the sentinel. */
  const settle = async (n: number) => {
    await waitForState(core, 'automation.watch', (s) => s.attributes.current === 0 && s.attributes.last_triggered !== null);
    core.bus.fire('test_sentinel', { n }, core.newContext());
    await client.waitFor((m) => m.type === 'event' && (m.event as { data: { n?: number } }).data.n === n);
  };
  const stateEvents = () => client.messages.filter((m) => m.type === 'event' && m.id === sub.id);
  const triggers = () =>
    client.messages.filter((m) => m.type === 'event' && m.id === seenSub.id).map((m) => (m.event as { data: JsonObject }).data);

  // A driver's first report, then the stored state applied through light.turn_on.
  open();
  const light = await waitForState(core, LIGHT, (s) => s.attributes.restored === undefined && s.state !== 'unknown');
  await settle(1);
  t.equal(light.state, 'on');
  t.equal(light.attributes.brightness, 100);
  checkEvents(t, stateEvents(), LIGHT, light, 'subscriber, light');
  checkTriggers(t, triggers(), LIGHT, light, 'automation, light');
  checkRows(t, await historyOf(home, LIGHT, sinceUs), light, 'history, light');

  // A helper that restores itself, gone from the configuration and back (reloaded while everyone listens).
  await writeFile(configPath, configYaml(false));
  await home.call('input_number', 'reload', {});
  t.equal(core.states.get(NUMBER), undefined, 'the helper is gone');
  await writeFile(configPath, configYaml(true));
  await home.call('input_number', 'reload', {});
  const number = await waitForState(core, NUMBER, (s) => s.attributes.restored === undefined);
  await settle(2);
  t.equal(number.state, '5.0', 'its stored value is back');
  checkEvents(t, stateEvents(), NUMBER, number, 'subscriber, helper');
  checkTriggers(t, triggers(), NUMBER, number, 'automation, helper');
  checkRows(t, await historyOf(home, NUMBER, sinceUs), number, 'history, helper');
  t.notOk(
    stateEvents().some((m) => (m.event as { data: { new_state: { state?: string } | null } }).data.new_state?.state === '0.0'),
    "the helper's default before its restore is never published",
  );
});

/** A switch's stored state `on`, written by a first life of the store on `dataDir`. */
async function storedOn(dataDir: string): Promise<void> {
  const core = new Core({ log: silentLogger });
  switchDomain.registerServices(core);
  const store = await RestoreState.open({ core, dataDir, log: silentLogger });
  const sw = addSwitch(core, { entityId: 'switch.radio', owner: 'test', platform: { turnOn() {}, turnOff() {} } });
  sw.entity.useContext(createContext(core.clock.now(), 'user-1'));
  sw.report(true);
  await store.stop();
}

/** A second life: the store, then a listener registered after it (as the recorder is), then the switch. */
async function secondLife(t: Teardown, dataDir: string, platform: SwitchPlatform) {
  const core = new Core({ log: silentLogger });
  switchDomain.registerServices(core);
  const store = await RestoreState.open({ core, dataDir, log: silentLogger });
  t.teardown(() => store.stop());
  const events: string[] = [];
  let last: State | null = null;
  const broken: string[] = [];
  core.bus.on('watch', 'state_changed', (e) => {
    const { old_state: from, new_state: to } = e.data;
    if (from !== last) broken.push(`${from?.state} after ${last?.state}`);
    last = to;
    events.push(`${from?.state ?? 'none'}${from?.attributes.restored ? '(restored)' : ''}>${to?.state}`);
  });
  const sw = addSwitch(core, { entityId: 'switch.radio', owner: 'test', platform });
  return { core, sw, events, broken };
}

t.test('a device switched at once: its stale first report is never published, and last_changed stays', async (t) => {
  const { dataDir } = await tempDirs(t);
  await storedOn(dataDir);
  let sw: ReturnType<typeof addSwitch> | undefined;
  const life = await secondLife(t, dataDir, { turnOn: () => sw?.report(true), turnOff: () => sw?.report(false) });
  sw = life.sw;
  const shown = life.core.states.get('switch.radio');
  sw.report(false); // The relay comes up off; restore switches it on at once.
  const now = life.core.states.get('switch.radio');
  t.same(life.events, ['none>on', 'on(restored)>on']);
  t.same(life.broken, []);
  t.equal(now?.attributes.restored, undefined);
  t.equal(now?.lastChangedUs, shown?.lastChangedUs, 'on all along, for everyone who watched');
});

t.test('a device that obeys later was in its reported state meanwhile: that is published, then the restored one', async (t) => {
  const { dataDir } = await tempDirs(t);
  await storedOn(dataDir);
  let sw: ReturnType<typeof addSwitch> | undefined;
  let confirm = () => {};
  const life = await secondLife(t, dataDir, {
    // A radio round trip: the device confirms later.
    turnOn: () =>
      new Promise<void>((resolve) => {
        confirm = () => {
          sw?.report(true);
          resolve();
        };
      }),
    turnOff: () => sw?.report(false),
  });
  sw = life.sw;
  sw.report(false);
  t.same(life.events, ['none>on', 'on(restored)>off'], 'off until the device says otherwise');
  confirm();
  await waitForState(life.core, 'switch.radio', (s) => s.state === 'on');
  t.same(life.events, ['none>on', 'on(restored)>off', 'off>on']);
  t.same(life.broken, []);
});

t.test("a driver's unknown is not its answer: the store waits for a value", async (t) => {
  const { dataDir } = await tempDirs(t);
  await storedOn(dataDir);
  let sw: ReturnType<typeof addSwitch> | undefined;
  let turnedOn = 0;
  const life = await secondLife(t, dataDir, {
    turnOn: () => {
      turnedOn++;
      sw?.report(true);
    },
    turnOff: () => sw?.report(false),
  });
  sw = life.sw;
  sw.report(null);
  t.equal(turnedOn, 0, 'still waiting for the device');
  sw.report(false);
  t.equal(turnedOn, 1, 'restored once the device answered');
  t.same(life.events, ['none>on', 'on(restored)>unknown', 'unknown>on']);
  t.same(life.broken, []);
});
