import { createRequire } from 'node:module';
import type { ChildMessage, ParentMessage } from './node-red-ipc.js';

/**
 * Node-RED for the end-to-end test, in a child process of its own: node-red-contrib-home-assistant-websocket
 * starts a timer at load that nothing stops (a 6-hour issue check), so an in-process Node-RED would keep the
 * test process alive after RED.stop(). Started with fork(userDir); reports over IPC what the probe nodes
 * receive and what Node-RED logs, and injects messages into nodes when the parent asks.
 */

interface NodeRed {
  init(settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly nodes: { getNode(id: string): { receive(msg: Record<string, unknown>): void } | null };
}

interface LogRecord {
  readonly level: number;
  readonly msg: unknown;
  readonly id?: string;
  readonly type?: string;
}

const userDir = process.argv[2];
if (userDir === undefined) throw new Error('usage: node-red-child <userDir>');

function send(message: ChildMessage): void {
  process.send?.(message);
}

const RED = createRequire(import.meta.url)('node-red') as NodeRed;
RED.init({
  userDir,
  flowFile: 'flows.json',
  credentialSecret: false,
  httpAdminRoot: false,
  httpNodeRoot: false,
  disableEditor: true,
  telemetry: { enabled: false },
  externalModules: { autoInstall: false, palette: { allowInstall: false }, modules: { allowInstall: false } },
  functionGlobalContext: {
    hearthSink: (kind: string, msg: Record<string, unknown>) => send({ type: 'sink', kind, msg }),
  },
  logging: {
    ipc: {
      level: 'debug',
      metrics: false,
      audit: false,
      handler: () => (r: LogRecord) =>
        send({ type: 'log', level: r.level, id: r.id ?? null, text: typeof r.msg === 'string' ? r.msg : JSON.stringify(r.msg) }),
    },
  },
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await RED.stop();
  } finally {
    process.exit(0);
  }
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    void stop();
    return;
  }
  const node = RED.nodes.getNode(message.id);
  if (node === null) send({ type: 'log', level: 20, id: message.id, text: `test: no running node ${message.id}` });
  else node.receive(message.msg);
});
// The parent went away without asking: do not outlive it.
process.on('disconnect', () => void stop());

await RED.start();
send({ type: 'started' });
