/**
 * bench/gpio-latency.ts's server process: a real Hub (uWS, WebSocket API, the GPIO driver with a fake backend)
 * whose binary_sensor the parent's run toggles, with 1,000 other entities updating beside it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { FakeGpioBackend } from '../drivers/gpio/fake-backend.js';
import { createGpioIntegration } from '../drivers/gpio/index.js';
import { parseConfigText } from '../src/config/load.js';
import { Hub, SECTION_VALIDATORS } from '../src/hub.js';
import { INTEGRATIONS, withIntegrations } from '../src/sections.js';
import { drive } from './gpio-latency-drive.js';
import { type FromServer, LOAD_ENTITIES, PIR, PIR_PIN, type RunRequest, runServer, type ToServer } from './gpio-latency-protocol.js';
import { monoMs } from './procs.js';

/** The Pi 4 fixture (kernel 6.6): the driver resolves the chip base (512) from it, as on a real Pi. */
const SYSFS_ROOT = fileURLToPath(new URL('../test/fixtures/gpio/pi4-6.6/', import.meta.url));

async function server(): Promise<void> {
  const fake = new FakeGpioBackend();
  const yaml = [
    'hub:',
    '  name: GPIO bench',
    'gpio:',
    `  sysfs_root: ${JSON.stringify(SYSFS_ROOT)}`,
    '  poll_interval: 3600',
    '  devices:',
    '    - name: Bench PIR',
    '      binary_sensors:',
    `        - {pin: ${PIR_PIN}, name: Bench PIR, id: bench_pir, device_class: motion, debounce: 0}`,
    '',
  ].join('\n');
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-gpio-bench-'));
  const log = pino({ level: 'warn' }, pino.destination(2));
  const hub = await Hub.start({
    config: parseConfigText(yaml, null, SECTION_VALIDATORS),
    dataDir,
    log,
    host: '127.0.0.1',
    port: 0,
    integrations: withIntegrations(INTEGRATIONS, createGpioIntegration({ backend: async () => fake })),
  });
  const { states, bus } = hub.core;
  // The first poll exports the line and reports its level; edges count only after that.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${PIR} never got a state`)), 10_000);
    const check = () => {
      if (states.get(PIR)?.state !== 'off') return false;
      clearTimeout(timer);
      off();
      resolve();
      return true;
    };
    const off = bus.on('bench', 'state_changed', check);
    check();
  });
  const wire = fake.wire(512 + PIR_PIN);
  const attrs = (i: number) => ({
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: `Load ${i}`,
  });
  const loadIds = Array.from({ length: LOAD_ENTITIES }, (_, i) => `sensor.load_${i}`);
  const loadAttrs = loadIds.map((_, i) => attrs(i));
  for (let i = 0; i < LOAD_ENTITIES; i++) states.set(loadIds[i] as string, '20.0', loadAttrs[i]);

  const owner = await hub.auth.ensureOwner('Bench');
  const token = await hub.auth.createToken(owner.id, 'gpio-bench');

  const run = async (r: RunRequest): Promise<FromServer> => {
    const busMs: number[] = [];
    let lastEdge = 0;
    const offBus = bus.on('bench', 'state_changed', (e) => {
      if (e.data.entity_id === PIR) busMs.push(monoMs() - lastEdge);
    });
    const result = await drive(
      r,
      (level) => {
        lastEdge = monoMs();
        wire.set(level);
      },
      (n) => {
        const i = n % LOAD_ENTITIES;
        // A new value on every write of an entity (an unchanged one would fire no event).
        const round = Math.floor(n / LOAD_ENTITIES);
        states.set(loadIds[i] as string, (15 + ((round * 7 + i) % 1000) / 100).toFixed(2), loadAttrs[i]);
      },
    );
    offBus();
    return { ...result, busMs };
  };

  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      void hub
        .stop()
        .then(() => rm(dataDir, { recursive: true, force: true }))
        .finally(() => process.exit(0));
      return;
    }
    void run(m).then((result) => process.send?.(result));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'listening', port: hub.port, token } satisfies FromServer);
}

runServer(server);
