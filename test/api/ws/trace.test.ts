import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { isoFromMicros, ManualClock } from '../../../src/core/clock.js';
import { writeGuestAuth } from '../../helpers/guest.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

const CONFIG = `${MINIMAL_CONFIG}
automation:
  - id: morning
    alias: Morning
    triggers:
      - trigger: event
        event_type: wake_up
    conditions:
      - condition: state
        entity_id: switch.coffee_maker
        state: "off"
    actions:
      - action: switch.turn_on
        target: { entity_id: switch.coffee_maker }
      - action: script.greet
        data: { who: sleeper }
script:
  greet:
    sequence:
      - event: greeted
        event_data: { who: "{{ who }}" }
`;

async function hub(t: Teardown) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-trace-'));
  const guestToken = await writeGuestAuth(dataDir);
  const clock = new ManualClock();
  const th = await startTestHub(t, { yaml: CONFIG, dataDir, clock });
  t.teardown(async () => {
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.ws.close());
  return { th, ws, clock, guestToken };
}

type Summary = Record<string, unknown> & { run_id: string; state: string };

/** trace/list until `count` runs are kept and all have stopped (bounded: 200 requests). */
async function stoppedRuns(ws: WsClient, fields: Record<string, unknown>, count: number): Promise<Summary[]> {
  for (let i = 0; i < 200; i++) {
    const reply = await ws.command('trace/list', fields);
    const list = reply.result as Summary[];
    if (list.length >= count && list.every((item) => item.state === 'stopped')) return list;
  }
  throw new Error(`no ${count} stopped runs for ${JSON.stringify(fields)}`);
}

function errorOf(reply: WsMessage): unknown {
  return reply.success === false ? reply.error : `succeeded: ${JSON.stringify(reply.result)}`;
}

t.test('trace/list, trace/get and trace/contexts show an automation run and the script it called', async (t) => {
  const { ws, clock } = await hub(t);
  const fired = await ws.command('fire_event', { event_type: 'wake_up' });
  t.equal(fired.success, true);
  const [auto] = await stoppedRuns(ws, { domain: 'automation', item_id: 'morning' }, 1);
  const [script] = await stoppedRuns(ws, { domain: 'script', item_id: 'greet' }, 1);
  const at = isoFromMicros(clock.now());
  t.same(auto, {
    last_step: 'action/1',
    run_id: auto?.run_id,
    state: 'stopped',
    script_execution: 'finished',
    timestamp: { start: at, finish: at },
    domain: 'automation',
    item_id: 'morning',
    trigger: "event 'wake_up'",
  });
  t.match(auto?.run_id, /^[0-9a-f]{32}$/);
  t.same(script, {
    last_step: 'sequence/0',
    run_id: script?.run_id,
    state: 'stopped',
    script_execution: 'finished',
    timestamp: { start: at, finish: at },
    domain: 'script',
    item_id: 'greet',
  });

  const all = await ws.command('trace/list', {});
  t.equal((all.result as unknown[]).length, 2, 'without a domain: both');
  const autos = await ws.command('trace/list', { domain: 'automation' });
  t.same(autos.result, [auto], 'a domain without item_id: every automation');
  t.same((await ws.command('trace/list', { domain: 'script', item_id: 'nothing' })).result, [], 'an unknown item has no runs');

  const got = await ws.command('trace/get', { domain: 'automation', item_id: 'morning', run_id: auto?.run_id });
  const trace = got.result as Record<string, unknown> & { trace: Record<string, Record<string, unknown>[]> };
  t.same(Object.keys(trace.trace), ['trigger/0', 'condition/0', 'action/0', 'action/1']);
  t.same(trace.trace['condition/0'], [{ path: 'condition/0', timestamp: at, result: { result: true } }]);
  t.same(trace.trace['action/1']?.[0]?.result, {
    params: { domain: 'script', service: 'greet', service_data: { who: 'sleeper' }, target: {} },
    running_script: true,
  });
  t.match(trace.config, { id: 'morning', alias: 'Morning', triggers: [{ trigger: 'event', event_type: 'wake_up' }] });
  t.equal(trace.blueprint_inputs, null);
  t.match(trace.context, { id: /^[0-9a-f]{32}$/, user_id: null });

  const scriptTrace = (await ws.command('trace/get', { domain: 'script', item_id: 'greet', run_id: script?.run_id })).result as {
    trace: Record<string, Record<string, unknown>[]>;
    context: { id: string; parent_id: string | null };
  };
  t.same(scriptTrace.trace['sequence/0']?.[0]?.result, { event: 'greeted', event_data: { who: 'sleeper' } });
  t.equal(scriptTrace.context.id, (trace.context as { id: string }).id, 'the script ran in the automation run context');

  const contexts = await ws.command('trace/contexts', {});
  t.same(Object.values(contexts.result as object).length, 1, 'one context id: the script shares the automation run context');
  const mine = await ws.command('trace/contexts', { domain: 'automation', item_id: 'morning' });
  t.same(mine.result, { [(trace.context as { id: string }).id]: { run_id: auto?.run_id, domain: 'automation', item_id: 'morning' } });
});

t.test('bad and unknown domain, item_id and run_id get Home Assistant error codes naming the field', async (t) => {
  const { ws } = await hub(t);
  t.same(errorOf(await ws.command('trace/get', { domain: 'automation', item_id: 'morning', run_id: 'nope' })), {
    code: 'not_found',
    message: 'The trace could not be found',
  });
  t.match(errorOf(await ws.command('trace/list', { domain: 'light' })), {
    code: 'invalid_format',
    message: /expected one of 'automation', 'script' for dictionary value @ data\['domain'\]/,
  });
  t.match(errorOf(await ws.command('trace/get', { domain: 'script', item_id: 'greet' })), {
    code: 'invalid_format',
    message: /run_id/,
  });
  t.match(errorOf(await ws.command('trace/get', { domain: 'script', item_id: 7, run_id: 'x' })), {
    code: 'invalid_format',
    message: /item_id/,
  });
  t.match(errorOf(await ws.command('trace/contexts', { domain: 'script' })), {
    code: 'invalid_format',
    message: /inclusion 'id' @ data\['item_id'\]/,
  });
  t.match(errorOf(await ws.command('trace/list', { item_id: 'morning' })), { code: 'invalid_format', message: /domain/ });
  t.match(errorOf(await ws.command('trace/list', { domain: 'script', extra: 1 })), { code: 'invalid_format', message: /extra/ });
});

t.test('the trace commands are for admins only', async (t) => {
  const { th, guestToken } = await hub(t);
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.ws.close());
  const unauthorized = { code: 'unauthorized', message: 'Unauthorized' };
  t.same(errorOf(await guest.command('trace/list', { domain: 'automation' })), unauthorized);
  t.same(errorOf(await guest.command('trace/get', { domain: 'automation', item_id: 'morning', run_id: 'x' })), unauthorized);
  t.same(errorOf(await guest.command('trace/contexts', {})), unauthorized);
});
