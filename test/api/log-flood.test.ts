import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger } from '../../src/util/logger.js';
import { startTestHub } from '../helpers/hub.js';
import { jsonPost } from './rest/helpers.js';
import { WsClient } from './ws/client.js';

/** Issue 32, finding 3: a token holder must not be able to grow the log (and the heap behind it) without bound. */

/** A pino destination that counts what is written to it. */
function counting(): { bytes: () => number; lines: string[]; destination: Writable } {
  const lines: string[] = [];
  let bytes = 0;
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { bytes: () => bytes, lines, destination };
}

const unknown = Array.from({ length: 10_000 }, (_, i) => `light.nowhere_${i}`);

t.test('service calls naming 10,000 unknown entities, repeated, log a few KB and are answered as Home Assistant answers', async (t) => {
  const out = counting();
  const { log, errorLog } = createLogger({ destination: out.destination });
  const hub = await startTestHub(t, { log });
  const before = out.bytes();
  const calls = 40;
  const answers = new Set<string>();
  for (let i = 0; i < calls; i++) {
    const res = await hub.api('/api/services/light/turn_on', jsonPost({ entity_id: unknown }));
    answers.add(`${res.status} ${await res.text()}`);
  }
  t.same([...answers], ['200 []'], 'each answered 200 with no changed state');
  const ws = await WsClient.authenticated(hub.wsUrl, hub.token);
  t.teardown(() => ws.close());
  let succeeded = 0;
  for (let i = 0; i < calls; i++) {
    const reply = await ws.command('call_service', { domain: 'homeassistant', service: 'turn_off', target: { entity_id: unknown } });
    if (reply.success === true) succeeded++;
  }
  t.equal(succeeded, calls, 'each WebSocket call succeeded');
  const written = out.bytes() - before;
  t.ok(written < 8192, `${2 * calls} calls wrote ${written} bytes of log`);
  const warnings = out.lines.slice(-40).map((l) => JSON.parse(l) as { msg: string });
  t.ok(
    warnings.some((w) => /^Referenced entities light\.nowhere_0, .* and 9990 more are missing or not currently available$/.test(w.msg)),
    "Home Assistant's warning, with the first ids and a count of the rest",
  );
  t.ok(errorLog.text().length < 8192, 'GET /api/error_log stays small too');
});

t.test('other requests that log what they name stay within a few KB too', async (t) => {
  const out = counting();
  const { log } = createLogger({ destination: out.destination });
  const hub = await startTestHub(t, { log });
  const before = out.bytes();
  // A scene holds at most 1024 entities; each missing one is Home Assistant's warning of its own.
  const entities = Object.fromEntries(unknown.slice(0, 1000).map((id) => [id, 'on']));
  const statuses = new Set<number>();
  for (let i = 0; i < 20; i++) {
    statuses.add((await hub.api('/api/services/scene/apply', jsonPost({ entities }))).status);
    statuses.add(
      (await hub.api('/api/services/light/turn_on', jsonPost({ entity_id: 'light.kitchen', color_name: 'x'.repeat(50_000) }))).status,
    );
    statuses.add((await fetch(`${hub.url}/api/states`, { headers: { authorization: `Bearer ${'t'.repeat(4000)}${i}` } })).status);
  }
  t.same([...statuses].sort(), [200, 400, 401], 'scenes applied, the colour refused, the tokens refused');
  const written = out.bytes() - before;
  t.ok(written < 16_384, `60 requests wrote ${written} bytes of log`);
});
