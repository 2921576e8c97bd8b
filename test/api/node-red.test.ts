import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { withoutCoverage } from '../helpers/child-env.js';
import { startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';
import {
  ACTION_ID,
  CURRENT_STATE_ID,
  EVENTS_STATE_ID,
  hearthFlow,
  RECORDED_SERVER_ID,
  RENDER_TEMPLATE_ID,
  SERVER_ID,
  type SinkKind,
} from './node-red-flow.js';
import type { ChildMessage, ParentMessage } from './node-red-ipc.js';
import { startWsRecorder } from './node-red-ws-recorder.js';

/**
 * End to end with Node-RED 4.1 and node-red-contrib-home-assistant-websocket 0.80: Node-RED runs in a child
 * process (no editor, no HTTP; see node-red-child.ts), its Home Assistant server node connects to a real
 * hub, and the test drives nodes by injecting messages and reads what they send through probe function
 * nodes, all over IPC.
 */

/** One of Node-RED's log records (level 20 error, 30 warn, 40 info, 50 debug). */
interface LogRecord {
  readonly level: number;
  readonly id: string | null;
  readonly text: string;
}

interface Captured {
  readonly kind: SinkKind;
  readonly msg: Record<string, unknown>;
  /** Date.now() on arrival. */
  readonly at: number;
}

const DEADLINE_MS = 10_000;
const START_DEADLINE_MS = 40_000;

/** What the probe nodes hand over, with waits that resolve on arrival or fail at a deadline. */
class Sink {
  readonly items: Captured[] = [];
  readonly logs: LogRecord[] = [];
  started = false;
  private waiters: (() => void)[] = [];
  private exited = false;

  /** Takes one message from the child. */
  readonly onMessage = (m: ChildMessage): void => {
    if (m.type === 'sink') this.items.push({ kind: m.kind as SinkKind, msg: m.msg, at: Date.now() });
    else if (m.type === 'log') this.logs.push({ level: m.level, id: m.id, text: m.text });
    else this.started = true;
    this.wake();
  };

  /** The child is gone: waits fail at once instead of at their deadline. */
  onExit(): void {
    this.exited = true;
    this.wake();
  }

  /** The first item (from index `from`) of this kind that matches. */
  waitFor(kind: SinkKind, match: (m: Record<string, unknown>) => boolean, what: string, ms = DEADLINE_MS, from = 0): Promise<Captured> {
    return this.until(() => this.items.slice(from).find((c) => c.kind === kind && match(c.msg)), what, ms);
  }

  /** Resolves with `find()`'s first defined answer, re-checked on every arrival; rejects after `ms`. */
  until<T>(find: () => T | undefined, what: string, ms: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no ${what} within ${ms} ms; Node-RED's last log lines:\n${this.logTail()}`));
      }, ms);
      const check = (): void => {
        const found = find();
        if (found === undefined && this.exited) {
          clearTimeout(timer);
          reject(new Error(`Node-RED exited before ${what}:\n${this.logTail()}`));
          return;
        }
        if (found === undefined) {
          this.waiters.push(check);
          return;
        }
        clearTimeout(timer);
        resolve(found);
      };
      check();
    });
  }

  private logTail(): string {
    return this.logs
      .slice(-15)
      .map((r) => `${r.level} ${r.id ?? ''} ${r.text}`)
      .join('\n');
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function statusText(m: Record<string, unknown>): { source: string; text: string } {
  const status = m.status as { text?: unknown; source?: { id?: unknown } } | undefined;
  return { source: String(status?.source?.id ?? ''), text: String(status?.text ?? '') };
}

async function switchState(th: TestHub, entityId: string): Promise<string> {
  const res = await th.api(`/api/states/${entityId}`);
  return ((await res.json()) as { state: string }).state;
}

const CHILD = fileURLToPath(new URL('./node-red-child.ts', import.meta.url));
const STOP_DEADLINE_MS = 5000;

/** Forks Node-RED on `userDir`; at teardown it is asked to stop, and killed if it has not exited in time. */
function startNodeRed(t: Teardown, userDir: string, sink: Sink): ChildProcess {
  const child = fork(CHILD, [userDir], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    // Node-RED runs none of hearth's code; its coverage data would only be megabytes for the report to skip.
    env: withoutCoverage(process.env),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  child.on('message', (m: ChildMessage) => sink.onMessage(m));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      if (code !== 0 && !stopping) sink.logs.push({ level: 10, id: null, text: `Node-RED exited (${code ?? signal}): ${stderr}` });
      sink.onExit();
      resolve();
    });
  });
  let stopping = false;
  t.teardown(async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.send({ type: 'stop' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
      await exited;
      clearTimeout(timer);
    }
  });
  return child;
}

t.test('Node-RED home-assistant nodes against hearth: connect, read, act, listen', async (t) => {
  const started = Date.now();
  const entityId = 'switch.coffee_maker';
  const th = await startTestHub(t);
  const userDir = await mkdtemp(join(tmpdir(), 'hearth-nodered-'));
  t.teardown(() => rm(userDir, { recursive: true, force: true }));
  await writeFile(join(userDir, 'flows.json'), JSON.stringify(hearthFlow(entityId, 'switch.toggle')));
  const recorder = await startWsRecorder(t, th.wsUrl);
  // Unencrypted credentials (credentialSecret: false): each server node's host and token.
  const credentials = {
    [SERVER_ID]: { host: th.url, access_token: th.token },
    [RECORDED_SERVER_ID]: { host: recorder.url, access_token: th.token },
  };
  await writeFile(join(userDir, 'flows_cred.json'), JSON.stringify(credentials));

  const sink = new Sink();
  const child = startNodeRed(t, userDir, sink);
  // Node-RED loads its palette from cold: on a 2-core machine running other test files beside it that took over 10 s.
  await sink.until(() => (sink.started ? true : undefined), 'Node-RED start', START_DEADLINE_MS);
  const inject = (id: string, msg: Record<string, unknown>) => child.send({ type: 'receive', id, msg } satisfies ParentMessage);

  // 1. The server node connects, loads states, services and all five registries, and reports running.
  await sink.waitFor(
    'status',
    // Without the editor Node-RED has no message catalogue loaded, so the text is the key.
    (m) => statusText(m).source === EVENTS_STATE_ID && /(^|\.)running\b/.test(statusText(m).text),
    'running status of the events: state node',
  );
  for (const server of [SERVER_ID, RECORDED_SERVER_ID]) {
    await sink.until(
      () => sink.logs.find((r) => r.id === server && r.text === 'Registries Loaded'),
      `"Registries Loaded" of ${server}`,
      DEADLINE_MS,
    );
  }
  t.pass(`server nodes running after ${Date.now() - started} ms`);

  // What the server node asks for on connect, and every answer a success (an error answer to a registry
  // list makes the node throw an unhandled rejection).
  const sent = new Set(recorder.commands.map((c) => c.type));
  for (const type of [
    'supported_features',
    'auth/current_user',
    'get_config',
    'get_services',
    'subscribe_entities',
    'subscribe_events',
    'config/area_registry/list',
    'config/device_registry/list',
    'config/entity_registry/list',
    'config/floor_registry/list',
    'config/label_registry/list',
  ]) {
    t.ok(sent.has(type), `the server node sent ${type}`);
  }
  await sink.until(
    () => (recorder.commands.every((c) => c.reply !== undefined) ? true : undefined),
    'replies to every command',
    DEADLINE_MS,
  );
  t.same(
    recorder.commands.filter((c) => c.reply?.success === false).map((c) => ({ sent: c.message, reply: c.reply })),
    [],
    'no command was refused',
  );
  const subscribed = recorder.commands.filter((c) => c.type === 'subscribe_events').map((c) => c.message.event_type);
  t.ok(subscribed.includes('nodered'), 'it subscribes to an event type the hub never fires (nodered)');

  // 2. Current state reads the switch as the hub has it.
  const before = await switchState(th, entityId);
  inject(CURRENT_STATE_ID, { payload: 'read' });
  const read = await sink.waitFor('current-state', () => true, 'current state output');
  t.equal(read.msg.payload, before, `current state reads ${before}`);
  t.match(read.msg.data, { entity_id: entityId, state: before, attributes: { friendly_name: 'Coffee Maker' } });

  // 3. The action node toggles it; the hub (REST) sees the new state.
  const toggled = before === 'on' ? 'off' : 'on';
  const actionFrom = sink.items.length;
  inject(ACTION_ID, { payload: 'toggle' });
  const acted = await sink.waitFor('action', () => true, 'action output', DEADLINE_MS, actionFrom);
  t.match(acted.msg.payload, { domain: 'switch', service: 'toggle', target: { entity_id: entityId } });
  t.equal(await switchState(th, entityId), toggled, `the switch is ${toggled} over REST`);
  // The node sees its own change come back as an event too.
  await sink.waitFor('events-state', (m) => m.payload === toggled, `events: state for ${toggled}`, DEADLINE_MS, actionFrom);

  // 4. A change made through REST reaches the events: state node within 2 s.
  const restFrom = sink.items.length;
  const sentAt = Date.now();
  const res = await th.api(`/api/services/switch/turn_${before}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entity_id: entityId }),
  });
  t.equal(res.status, 200);
  const event = await sink.waitFor('events-state', (m) => m.payload === before, `events: state for ${before}`, 2000, restFrom);
  t.ok(event.at - sentAt < 2000, `event after ${event.at - sentAt} ms`);
  t.match(event.msg.data, { entity_id: entityId, old_state: { state: toggled }, new_state: { state: before } });
  t.equal(event.msg.topic, entityId);

  // 5. The render template node renders through POST /api/template.
  const renderFrom = sink.items.length;
  inject(RENDER_TEMPLATE_ID, { payload: 'render' });
  const rendered = await sink.waitFor('render-template', () => true, 'render template output', DEADLINE_MS, renderFrom);
  t.equal(rendered.msg.payload, `${before} COFFEE MAKER 3`, 'the rendered text');
  t.equal(rendered.msg.template, `{{ states('${entityId}') }} {{ state_attr('${entityId}', 'friendly_name') | upper }} {{ [1, 2] | sum }}`);

  // Nothing failed on the way: no caught errors, no error logs from the Home Assistant nodes.
  t.same(
    sink.items.filter((c) => c.kind === 'error').map((c) => c.msg.error),
    [],
    'no errors caught in the flow',
  );
  t.same(
    sink.logs.filter((r) => r.level <= 20).map((r) => r.text),
    [],
    'no error logs',
  );
  t.ok(Date.now() - started < 30_000, `whole run took ${Date.now() - started} ms`);
});
