import type { Socket } from 'node:net';
import t from 'tap';
import type WebSocket from 'ws';
import type { WebSocketApi } from '../../../src/api/websocket.js';
import type { Core } from '../../../src/core/core.js';
import { startTestHub } from '../../helpers/hub.js';
import { applyEntityEvent, type ClientState, recordingLogger, startWsOnly, WsClient, withDeadline } from './client.js';

/** The TCP socket under a `ws` client: pausing it makes a reader that has stopped reading. */
function tcpOf(ws: WebSocket): Socket {
  return (ws as unknown as { _socket: Socket })._socket;
}

/**
 * A client that only counts event messages and remembers the last state it saw, without keeping the
 * messages (so it does not distort the memory measurement of the hub it shares the process with).
 */
class CountingClient {
  events = 0;
  lastState = '';
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (!text.includes('"type":"event"')) return;
      this.events++;
      const at = text.lastIndexOf('"state":"');
      this.lastState = text.slice(at + 9, text.indexOf('"', at + 9));
      const w = this.waiters;
      this.waiters = [];
      for (const fn of w) fn();
    });
  }

  static async subscribed(url: string, token: string): Promise<CountingClient> {
    const base = await WsClient.authenticated(url, token);
    await base.command('subscribe_events', { event_type: 'state_changed' });
    base.ws.removeAllListeners('message');
    return new CountingClient(base.ws);
  }

  async waitForEvents(count: number, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.events < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`only ${this.events} of ${count} events within ${deadlineMs} ms`);
      await withDeadline(new Promise<void>((resolve) => this.waiters.push(resolve)), left, `${count} events`);
    }
  }
}

/** About 1 KB of attributes, like a busy media player or climate entity. */
const BIG_ATTRIBUTES = {
  friendly_name: 'Living room sensor',
  unit_of_measurement: '°C',
  notes: 'x'.repeat(900),
};

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

t.test('a stalled reader is dropped with a logged reason; the hub stays bounded and others keep up', async (t) => {
  const log = recordingLogger();
  const { hub, wsUrl, token } = await startTestHub(t, { log });
  const fast = await CountingClient.subscribed(wsUrl, token);
  const stalled = await CountingClient.subscribed(wsUrl, token);
  t.teardown(() => {
    fast.ws.close();
    stalled.ws.terminate();
  });
  tcpOf(stalled.ws).pause();

  const TOTAL = 40_000;
  const BATCH = 400;
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  let heapPeak = heapBefore;
  let rssPeak = rssBefore;
  let slowestBatchMs = 0;
  for (let n = 0; n < TOTAL; ) {
    const started = performance.now();
    for (let i = 0; i < BATCH; i++, n++) hub.core.states.set('sensor.living_room', String(n), BIG_ATTRIBUTES);
    // The other client gets each batch promptly, whatever the stalled one does.
    await fast.waitForEvents(n, 2000);
    slowestBatchMs = Math.max(slowestBatchMs, performance.now() - started);
    const m = process.memoryUsage();
    heapPeak = Math.max(heapPeak, m.heapUsed);
    rssPeak = Math.max(rssPeak, m.rss);
  }
  t.equal(fast.events, TOTAL, 'the reading client got every event');
  t.equal(fast.lastState, String(TOTAL - 1));
  t.ok(slowestBatchMs < 1000, `slowest batch reached the reading client in ${slowestBatchMs.toFixed(1)} ms`);

  const line = await log.waitFor(/Client unable to keep up with pending messages/);
  // Whichever bound comes first: 16384 messages, or 16 MiB (these events are ~2.7 KB with both states).
  t.match(line.msg, /Reached (16384 pending messages|16777216 pending bytes)/);
  t.match(line.msg, /127\.0\.0\.1|ffff:7f00:1/, 'names the address');
  t.match(line.msg, /user Test Owner/, 'names the user');
  t.match(line.obj, { user: 'Test Owner', pending: Number });
  const growthMb = (heapPeak - heapBefore) / 1024 / 1024;
  t.ok(growthMb < 96, `heap grew by ${growthMb.toFixed(1)} MB at most while ${TOTAL} events of ~1 KB were generated`);
  // RSS also holds uWS's native send buffers (bounded by the high-water mark) and this test's own clients.
  const rssGrowthMb = (rssPeak - rssBefore) / 1024 / 1024;
  t.ok(rssGrowthMb < 160, `RSS grew by ${rssGrowthMb.toFixed(1)} MB at most`);

  tcpOf(stalled.ws).resume();
  await withDeadline(new Promise((resolve) => stalled.ws.once('close', resolve)), 5000, 'the stalled client to see the close');
  t.ok(stalled.events < TOTAL, `the stalled client got ${stalled.events} events before it was dropped`);
});

t.test('a queue that stays over the peak for the peak time drops the client', async (t) => {
  const log = recordingLogger();
  const { core, wsUrl, token, api } = await startWsOnly(
    t,
    { pendingPeak: 20, pendingPeakMs: 300, maxPendingBytes: 256 * 1024 * 1024, sendHighWater: 16 * 1024 },
    log,
  );
  const stalled = await WsClient.authenticated(wsUrl, token);
  const other = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => {
    stalled.ws.terminate();
    other.close();
  });
  await stalled.command('subscribe_events', { event_type: 'big' });
  tcpOf(stalled.ws).pause();
  await fillUntilQueued(core, api, 25);
  t.ok(
    api.clients().some((c) => c.pending >= 20 && c.pending < 30),
    'the queue is over the peak',
  );
  const line = await log.waitFor(/Stayed over 20 for 0.3 seconds/, 3000);
  t.match(line.obj, { user: 'Test Owner' });
  t.equal(api.connectionCount, 1);
  t.same(await other.command('ping'), { id: 1, type: 'pong' }, 'the other client is untouched');
});

t.test('pending bytes are bounded too', async (t) => {
  const log = recordingLogger();
  const { core, wsUrl, token, api } = await startWsOnly(t, { maxPendingBytes: 1024 * 1024, sendHighWater: 16 * 1024 }, log);
  const stalled = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => stalled.ws.terminate());
  await stalled.command('subscribe_events', { event_type: 'big' });
  tcpOf(stalled.ws).pause();
  await fillUntilQueued(core, api, 100);
  const line = await log.waitFor(/Reached 1048576 pending bytes/, 3000);
  t.ok((line.obj.pending as number) <= 16, `${line.obj.pending} messages of 64 KB`);
  t.equal(api.connectionCount, 0);
});

/**
 * Fires 64 KB events until one client has `queued` messages waiting in the hub (the kernel's socket
 * buffers fill first) or was dropped; bounded by a number of events far beyond any loopback buffer.
 */
async function fillUntilQueued(core: Core, api: WebSocketApi, queued: number): Promise<void> {
  const data = { blob: 'y'.repeat(64 * 1024) };
  for (let i = 0; i < 2048; i++) {
    core.bus.fire('big', data, core.newContext());
    if (i % 8 === 7) {
      await turn();
      const clients = api.clients();
      if (clients.length === 0 || clients.some((c) => c.pending >= queued)) return;
    }
  }
  throw new Error(`no client had ${queued} messages waiting after 2048 events`);
}

t.test('a stalled subscribe_entities client is not dropped: its diffs collapse, and it ends up right', async (t) => {
  const log = recordingLogger();
  const { core, wsUrl, token, api } = await startWsOnly(t, {}, log);
  const client = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => client.close());
  await client.command('subscribe_entities');
  await client.waitFor((m) => m.type === 'event');
  tcpOf(client.ws).pause();
  const ids = ['sensor.a', 'sensor.b', 'sensor.c'];
  const CHANGES = 9000;
  let maxPending = 0;
  // One change per entity per turn: uncollapsed this would be ~150 MB, far beyond the socket buffers.
  for (let n = 0; n < CHANGES; n++) {
    // A 16 KB attribute that changes every time, so every diff is big.
    core.states.set(ids[n % 3] as string, String(n), { ...BIG_ATTRIBUTES, notes: String(n).padEnd(16 * 1024, 'z') });
    if (n % 3 === 2) {
      await turn();
      maxPending = Math.max(maxPending, api.clients()[0]?.pending ?? 0);
    }
  }
  t.ok(maxPending <= 3, `at most one waiting message per entity (saw ${maxPending})`);
  tcpOf(client.ws).resume();
  t.same(await client.command('ping', {}, 10_000), { id: 2, type: 'pong' }, 'still connected');
  t.notOk(
    log.lines.some((l) => /unable to keep up/.test(l.msg)),
    'never dropped',
  );
  const store = new Map<string, ClientState>();
  for (const m of client.messages) if (m.type === 'event') applyEntityEvent(store, m.event as never);
  for (const id of ids) {
    const s = core.states.get(id);
    t.equal(store.get(id)?.state, s?.state, `${id} has its latest state`);
    t.same(store.get(id)?.attributes, s?.attributes);
  }
  const eventCount = client.messages.filter((m) => m.type === 'event').length;
  t.ok(eventCount < CHANGES, `${eventCount} messages carried ${CHANGES} changes`);
});

t.test('two subscribers see every event in the same order', async (t) => {
  const { hub, wsUrl, token } = await startTestHub(t);
  const a = await WsClient.authenticated(wsUrl, token);
  const b = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => {
    a.close();
    b.close();
  });
  await a.command('subscribe_events');
  // b coalesces, so it sees the same stream through array frames.
  await b.command('supported_features', { features: { coalesce_messages: 1 } });
  await b.command('subscribe_events');
  const core = hub.core;
  const TOTAL = 3000;
  for (let n = 0; n < TOTAL; n++) {
    if (n % 7 === 0) core.bus.fire('tick', { n }, core.newContext());
    else core.states.set(`sensor.s${n % 10}`, String(n));
    if (n % 250 === 249) await turn();
  }
  core.bus.fire('done', {}, core.newContext());
  const done = (m: { type?: string; event?: unknown }) => m.type === 'event' && (m.event as { event_type: string }).event_type === 'done';
  await a.waitFor(done, 10_000);
  await b.waitFor(done, 10_000);
  const sequence = (c: WsClient) =>
    c.messages
      .filter((m) => m.type === 'event')
      .map((m) => {
        const e = m.event as { event_type: string; data: { n?: number; entity_id?: string; new_state?: { state: string } } };
        return `${e.event_type}:${e.data.entity_id ?? ''}:${e.data.new_state?.state ?? e.data.n ?? ''}`;
      });
  const seqA = sequence(a);
  const seqB = sequence(b);
  t.equal(seqA.filter((s) => s.startsWith('state_changed') || s.startsWith('tick')).length, TOTAL, 'every event arrived');
  t.same(seqA, seqB, 'in the same order');
  t.ok(b.frames.length < a.frames.length, `coalescing used ${b.frames.length} frames for ${a.frames.length} messages`);
});
