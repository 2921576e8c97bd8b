/**
 * The hearth side of the fan-out benchmark: a real Hub (uWS, REST and WebSocket API, core) in its own
 * process on 127.0.0.1, fed by the shared state-change generator. Started by bench/ws-fanout.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfigText } from '../src/config/load.js';
import { Hub, SECTION_VALIDATORS } from '../src/hub.js';
import { serveBenchmark } from './ws-server-harness.js';

const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
// Warnings (a dropped slow client, say) go to stderr, so a run that drops clients says so.
const log = pino({ level: 'warn' }, pino.destination(2));
const config = parseConfigText('hub:\n  name: Bench\n', null, SECTION_VALIDATORS);
const hub = await Hub.start({ config, dataDir, log, host: '127.0.0.1', port: 0 });
const owner = await hub.auth.ensureOwner('Bench');
const token = await hub.auth.createToken(owner.id, 'bench');
serveBenchmark(hub.core.states, hub.port, token, async () => {
  await hub.stop();
  await rm(dataDir, { recursive: true, force: true });
});
