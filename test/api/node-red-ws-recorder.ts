import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import type { Teardown } from '../helpers/hub.js';

/** A command a client sent, and how the hub answered it (undefined while unanswered). */
export interface RecordedCommand {
  readonly id: number;
  readonly type: string;
  readonly message: Record<string, unknown>;
  reply?: Record<string, unknown>;
}

export interface WsRecorder {
  /** http://127.0.0.1:<port>: give this to the client as the hub's address. */
  readonly url: string;
  /** Commands in the order sent, across connections. */
  readonly commands: RecordedCommand[];
  /** Resolves once every command sent so far has its reply; rejects after `ms`. */
  answered(ms: number): Promise<void>;
}

/**
 * A WebSocket pass-through to the hub's /api/websocket that records every command a client sends and the
 * reply it got, so a test can see what a third-party client asks for and that nothing was refused.
 */
export async function startWsRecorder(t: Teardown, hubWsUrl: string): Promise<WsRecorder> {
  const commands: RecordedCommand[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server, path: '/api/websocket' });
  wss.on('connection', (client) => {
    const pending = new Map<number, RecordedCommand>();
    const upstream = new WebSocket(hubWsUrl);
    const early: string[] = [];
    client.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const parsed = JSON.parse(text) as Record<string, unknown>;
      if (typeof parsed.id === 'number' && typeof parsed.type === 'string') {
        const entry: RecordedCommand = { id: parsed.id, type: parsed.type, message: parsed };
        commands.push(entry);
        pending.set(parsed.id, entry);
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else early.push(text);
    });
    upstream.on('open', () => {
      for (const text of early.splice(0)) upstream.send(text);
    });
    upstream.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const parsed = JSON.parse(text) as unknown;
      for (const m of (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[]) {
        const entry = typeof m.id === 'number' && m.type !== 'event' ? pending.get(m.id) : undefined;
        if (entry !== undefined) {
          entry.reply = m;
          pending.delete(m.id as number);
        }
      }
      if (client.readyState === WebSocket.OPEN) client.send(text);
      const woken = waiters;
      waiters = [];
      for (const w of woken) w();
    });
    const closeBoth = () => {
      client.close();
      upstream.close();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  );
  const answered = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const open = commands.filter((c) => c.reply === undefined).map((c) => c.type);
        reject(new Error(`no reply within ${ms} ms to ${open.join(', ')}`));
      }, ms);
      const check = (): void => {
        if (commands.every((c) => c.reply !== undefined)) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, commands, answered };
}
