/**
 * render_template at scale: 100 subscriptions over one WebSocket (client in bench/automation-ws-client.ts, its
 * own process), templates reading 1 to 5 of 1,000 entities. Measures the hub process's CPU per state change
 * against the same changes with the same connection before it subscribed and after it unsubscribed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { Core } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { openWsOnly } from '../test/api/ws/client.js';
import { attrsOf, setEntities } from './automation-rig.js';
import type { FromTemplateClient, ToTemplateClient } from './automation-ws-client.js';
import { BENCH, TSX } from './procs.js';
import { next } from './ws-client-process.js';

const SUBSCRIPTIONS = 100;
const CHANGES = 2_000;
const ROUNDS = 3;

export interface TemplateRow {
  readonly case: string;
  readonly subsUs: number;
  readonly bareUs: number;
  readonly ratio: number;
  readonly rendersPerChange: number;
  readonly bytesPerChange: number;
}

/** 100 templates as dashboards and Node-RED write them; template k reads sensors k, k+100, ... (1 to 5 of them). */
export function templates(): string[] {
  const out: string[] = [];
  for (let k = 0; k < SUBSCRIPTIONS; k++) {
    const t = `sensor.temp_${k}`;
    switch (k % 5) {
      case 0:
        out.push(`{{ states('${t}') | float(0) | round(1) }} °C`);
        break;
      case 1:
        out.push(`{{ 'warm' if states('${t}') | float(0) > states('sensor.temp_${k + 100}') | float(0) else 'cool' }}`);
        break;
      case 2:
        out.push(
          `{{ [states('${t}'), states('sensor.temp_${k + 100}'), states('sensor.power_${k}')] | map('float', 0) | sum | round(1) }}`,
        );
        break;
      case 3:
        out.push(
          `{% if is_state('binary_sensor.motion_${k}', 'on') %}moving{% else %}{{ state_attr('${t}', 'unit_of_measurement') }} {{ states('${t}') }}{% endif %}`,
        );
        break;
      default:
        out.push(
          `{{ ((states('${t}') | float(0)) - (states('sensor.outdoor') | float(0))) | round(1) }} / {{ states('sensor.power_${k}') }} W / {{ states('switch.plug_${k}') }} / {{ states('binary_sensor.motion_${k}') }}`,
        );
    }
  }
  return out;
}

interface Case {
  readonly name: string;
  readonly change: (core: Core, n: number) => void;
  /** Subscriptions that read the changed entity. */
  readonly readers: number;
}

const CASES: readonly Case[] = [
  { name: 'an entity no template reads (sensor.temp_250..299)', change: (core, n) => temp(core, 250 + (n % 50), n), readers: 0 },
  { name: 'an entity one template reads (sensor.temp_0)', change: (core, n) => temp(core, 0, n), readers: 1 },
  {
    name: 'an entity 20 templates read (sensor.outdoor)',
    change: (core, n) => core.states.set('sensor.outdoor', (10 + (n % 50) / 10).toFixed(1), attrsOf.temp),
    readers: 20,
  },
];

function temp(core: Core, i: number, n: number): void {
  core.states.set(`sensor.temp_${i}`, (20 + (n % 50) / 10).toFixed(1), attrsOf.temp);
}

const timers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** CPU µs of this process per change, each change followed by a turn of the timers (where re-renders run). */
async function round(core: Core, c: Case): Promise<number> {
  const before = process.cpuUsage();
  for (let n = 0; n < CHANGES; n++) {
    c.change(core, n);
    await timers();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CHANGES;
}

async function count(client: ChildProcess): Promise<{ events: number; bytes: number }> {
  const reply = next<Extract<FromTemplateClient, { type: 'count' }>>(client, 'count', 30_000);
  client.send({ type: 'count' } satisfies ToTemplateClient);
  return reply;
}

export async function measureTemplates(): Promise<TemplateRow[]> {
  const core = new Core({ log: silentLogger, maxEntities: 2048 });
  setEntities(core);
  core.states.set('sensor.outdoor', '12.0', attrsOf.temp);
  const server = await openWsOnly({
    core,
    owner: 'Bench',
    limits: { templateEntityIntervalMs: 0, templateWideIntervalMs: 0, maxTemplateSubscriptions: SUBSCRIPTIONS },
  });
  const client = fork(`${BENCH}automation-ws-client.ts`, [], { execArgv: TSX, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const connected = next<FromTemplateClient>(client, 'connected', 30_000);
    client.send({ type: 'connect', url: server.wsUrl, token: server.token } satisfies ToTemplateClient);
    await connected;
    // The reference first: the same connection, no subscription.
    const bare = new Map<string, number>();
    for (const c of CASES) {
      await round(core, c);
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < ROUNDS; r++) best = Math.min(best, await round(core, c));
      bare.set(c.name, best);
    }
    const subscribed = next<FromTemplateClient>(client, 'subscribed', 60_000);
    client.send({ type: 'subscribe', templates: templates() } satisfies ToTemplateClient);
    await subscribed;
    const rows: TemplateRow[] = [];
    for (const c of CASES) {
      await round(core, c);
      const before = await count(client);
      let best = Number.POSITIVE_INFINITY;
      for (let r = 0; r < ROUNDS; r++) best = Math.min(best, await round(core, c));
      const after = await count(client);
      const changes = CHANGES * ROUNDS;
      const bareUs = bare.get(c.name) as number;
      rows.push({
        case: c.name,
        subsUs: best,
        bareUs,
        ratio: best / bareUs,
        rendersPerChange: (after.events - before.events) / changes,
        bytesPerChange: (after.bytes - before.bytes) / changes,
      });
    }
    return rows;
  } finally {
    client.kill();
    await server.close();
  }
}
