import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import type { Component } from '../../src/core/component.js';
import { addSwitch } from '../../src/domains/switch.js';
import { type Integration, type IntegrationContext, NotReadyError } from '../../src/integration/integration.js';
import { WsClient } from '../api/ws/client.js';
import { BROKEN_HOME } from '../fixtures/broken-home.js';
import { startTestHub } from '../helpers/hub.js';
import { type LogEntry, memoryLogger } from '../helpers/logger.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { waitForState } from '../helpers/wait.js';

function errors(entries: readonly LogEntry[]): string[] {
  return entries.filter((e) => e.level === 'error').map((e) => e.msg);
}

t.test('a broken automation, a broken template sensor and an unknown section disable only themselves', async (t) => {
  const log = memoryLogger();
  const th = await startTestHub(t, { yaml: BROKEN_HOME, lenient: true, log });
  const { core } = th.hub;

  // The rest serves and runs.
  const res = await th.api('/api/states/light.porch');
  t.equal(res.status, 200, 'the API serves the configured light');
  t.equal(core.states.get('sensor.porch_light_state')?.state, 'off', 'the good template sensor renders');
  t.equal(core.states.get('sensor.broken_sensor'), undefined, 'the broken template sensor is left out');
  t.ok(core.states.get('automation.porch_light_follows_the_switch'), 'the good automation is there');
  // As Home Assistant's UnavailableAutomationEntity: the broken automation shows, unavailable, and does nothing.
  const broken = core.states.get('automation.typo_in_the_trigger');
  t.equal(broken?.state, 'unavailable', 'the broken automation is an unavailable entity');
  t.same(broken?.attributes, { friendly_name: 'Typo in the trigger' });
  await core.services.call('automation', 'trigger', { entity_id: 'automation.typo_in_the_trigger' });
  t.equal(core.states.get('light.porch')?.state, 'off', 'triggering it runs nothing');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.porch_switch' });
  await waitForState(core, 'light.porch', (s) => s.state === 'on');
  await waitForState(core, 'sensor.porch_light_state', (s) => s.state === 'on');
  t.pass('the working automation fires and the template sensor follows');

  // One log line names each broken part.
  const lines = errors(log.entries);
  for (const [part, problem] of [
    ['automation[1] (Typo in the trigger)', /automation\[1\]\.triggers\[0\]/],
    ['template[0].sensor[1] (Broken sensor)', /template\[0\]\.sensor\[1\]/],
    ['frobnicate', /unknown section/],
  ] as const) {
    const named = lines.filter((l) => l.startsWith(`${part} is not started: `));
    t.equal(named.length, 1, `one log line names ${part}`);
    t.match(named[0], problem);
  }

  // And Home Assistant's invalid_config notification, over a real WebSocket.
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  const got = await ws.command('persistent_notification/get');
  t.equal(got.success, true);
  const notes = got.result as { notification_id: string; title: string; message: string; created_at: string }[];
  const invalid = notes.find((n) => n.notification_id === 'invalid_config');
  t.ok(invalid, 'the invalid_config notification is there');
  t.equal(invalid?.title, 'Invalid config');
  t.match(invalid?.message, /^The following integrations and platforms could not be set up:/);
  for (const part of ['automation[1] (Typo in the trigger)', 'template[0].sensor[1] (Broken sensor)', 'frobnicate']) {
    t.match(invalid?.message, ` - ${part}: `, `the notification names ${part}`);
  }
  t.notMatch(invalid?.message, /Porch light follows|Porch light state|virtual/, 'nothing that runs is named');
});

t.test('a part whose section has problems is not started; the others are', async (t) => {
  const log = memoryLogger();
  const yaml = `${BROKEN_HOME.replace(/frobnicate:\n {2}answer: 42\n/, '')}mqtt:\n  brokr: mqtt://127.0.0.1\n`;
  const th = await startTestHub(t, { yaml, lenient: true, log });
  t.equal(th.hub.mqtt, undefined, 'MQTT with a typo is not started');
  t.match(errors(log.entries).join('\n'), /^mqtt is not started: <config>:\d+:\d+: mqtt\.broker: is required/m);
  t.ok(th.hub.core.states.get('light.porch'), 'the drivers run');
});

/**
 * A driver whose device is not there until `ready` is set: each start first registers its device and switch (so a
 * failed one leaves something to clean up), then throws as a missing device does.
 */
function flakyDriver(state: { ready: boolean; starts: number; error: () => Error }): Integration<Record<string, never>, Component> {
  return {
    name: 'flaky',
    sections: {},
    create: (ctx: IntegrationContext): Component => ({
      name: 'flaky',
      owner: ctx.owner,
      async start() {
        state.starts++;
        const device = ctx.core.devices.register({ identifiers: [['flaky', 'stick']], name: 'Flaky stick', owner: ctx.owner });
        const sw = addSwitch(ctx.core, {
          entityId: 'switch.flaky',
          owner: ctx.owner,
          name: 'Flaky',
          deviceId: device.id,
          platform: { turnOn() {}, turnOff() {} },
        });
        if (!state.ready) throw state.error();
        sw.report(true);
      },
      async stop() {},
    }),
  };
}

t.test('a driver whose start throws is retried with backoff on the hub scheduler and comes up when the cause passes', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 8, 0) * 1000);
  const scheduler = new ManualScheduler(clock);
  const log = memoryLogger();
  const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/dev/ttyUSB0'"), { code: 'ENOENT' });
  const state = { ready: false, starts: 0, error: () => missing };
  const th = await startTestHub(t, { log, clock, scheduler, extraIntegrations: [flakyDriver(state)] });
  const { core } = th.hub;

  t.equal(state.starts, 1);
  t.equal(core.states.get('switch.flaky'), undefined, 'what the failed start registered is removed');
  t.notOk(
    [...core.devices.all()].some((d) => d.owner === 'flaky'),
    'its device too',
  );
  const note = core.notifications.get('invalid_config');
  t.match(note?.message, / - flaky \(retrying\): ENOENT/, 'named in the notification, as retrying');
  t.equal(errors(log.entries).filter((l) => l.startsWith('flaky ')).length, 1, 'one log line');
  t.equal(th.hub.core.runState, 'RUNNING', 'the hub runs');

  // Still missing: tried again after 5 s, then 10 s; said once.
  scheduler.advance(5000);
  await waitFor(() => state.starts === 2);
  t.same(scheduler.waiting.filter((ms) => ms > 9000 && ms <= 10_000).length, 1, 'the next try is in 10 s');
  t.equal(errors(log.entries).filter((l) => l.startsWith('flaky ')).length, 1, 'the same failure is not logged again');

  // The stick is plugged in: the next try brings it up, and the notification goes.
  state.ready = true;
  scheduler.advance(10_000);
  await waitForState(core, 'switch.flaky', (s) => s.state === 'on');
  t.equal(state.starts, 3);
  await waitFor(() => core.notifications.get('invalid_config') === undefined);
  t.ok(
    log.entries.some((e) => e.level === 'info' && e.msg === 'flaky started'),
    'its start is logged',
  );
});

t.test('a start failure that cannot pass is not retried', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 8, 0) * 1000);
  const scheduler = new ManualScheduler(clock);
  const log = memoryLogger();
  const state = { ready: false, starts: 0, error: () => new TypeError('cannot read properties of undefined') };
  const th = await startTestHub(t, { log, clock, scheduler, extraIntegrations: [flakyDriver(state)] });
  scheduler.advance(3600_000);
  t.equal(state.starts, 1, 'tried once');
  t.match(th.hub.core.notifications.get('invalid_config')?.message, / - flaky: failed to start: cannot read properties/);
});

t.test('NotReadyError is transient', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 8, 0) * 1000);
  const scheduler = new ManualScheduler(clock);
  const state = { ready: false, starts: 0, error: () => new NotReadyError('the broker is not up yet') };
  await startTestHub(t, { clock, scheduler, extraIntegrations: [flakyDriver(state)] });
  scheduler.advance(5000);
  await waitFor(() => state.starts === 2);
  t.pass('tried again');
});

/** Resolves once `check` holds, looking after each event-loop turn; fails after 3 s. */
async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met within the deadline');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
