/**
 * The hub side of bench/template-budget.ts: a real Hub (uWS, REST and WebSocket API) in its own process on
 * 127.0.0.1, with 1,000 sensors and an automation whose condition runs to the template deadline when the event
 * that triggers it says so. Reports its port and token, and on request its event-loop delay (how long a ready
 * callback waited: the longest stall) and CPU time since the previous request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseConfigText } from '../src/config/load.js';
import { silentLogger } from '../src/core/log.js';
import { Hub } from '../src/hub.js';
import { SECTION_VALIDATORS } from '../src/sections.js';

const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';

export type FromBudgetHub =
  | { readonly type: 'listening'; readonly port: number; readonly token: string }
  | { readonly type: 'stats'; readonly loopP99Ms: number; readonly loopMaxMs: number; readonly cpuMs: number; readonly wallMs: number };

const CONFIG = `
hub:
  name: Bench
automation:
  - id: hostile
    alias: Hostile
    triggers:
      - trigger: event
        event_type: poke
    conditions: "{% if trigger.event.data.slow %}${HOSTILE}{% endif %}true"
    actions:
      - event: poked
`;

const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-budget-'));
const config = parseConfigText(CONFIG, null, SECTION_VALIDATORS);
const hub = await Hub.start({ config, dataDir, log: silentLogger, host: '127.0.0.1', port: 0 });
for (let i = 0; i < 1000; i++) {
  hub.core.states.set(`sensor.temp_${i}`, (20 + (i % 50) / 10).toFixed(1), { unit_of_measurement: '°C', device_class: 'temperature' });
}
const owner = await hub.auth.ensureOwner('Bench');
const token = await hub.auth.createToken(owner.id, 'bench');
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
let cpu = process.cpuUsage();
let wall = performance.now();
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    process.send?.({
      type: 'stats',
      loopP99Ms: loop.percentile(99) / 1e6,
      loopMaxMs: loop.max / 1e6,
      cpuMs: (used.user + used.system) / 1000,
      wallMs: now - wall,
    } satisfies FromBudgetHub);
    loop.reset();
    cpu = process.cpuUsage();
    wall = now;
  } else if (message.type === 'exit') {
    void hub
      .stop()
      .then(() => rm(dataDir, { recursive: true, force: true }))
      .finally(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'listening', port: hub.port, token } satisfies FromBudgetHub);
