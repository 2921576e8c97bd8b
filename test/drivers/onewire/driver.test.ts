import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { parseOnewireSection } from '../../../drivers/onewire/config.js';
import { OnewireDriver, type OnewireDriverOptions } from '../../../drivers/onewire/index.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import { type LogLine, newCore, recordingLogger, recordStates, type Teardown, waitForState } from '../gpio/helpers.js';

const GREENHOUSE = '28-0316a2791fff';
const SOIL = '28-3c01d607d4aa';
const FAST_BACKOFF = { initialMs: 20, maxMs: 80 };

const good = (milli: number) => `72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=${milli}\n`;
const badCrc = '72 01 4b 46 7f ff 0e 10 57 : crc=57 NO\n72 01 4b 46 7f ff 0e 10 57 t=23125\n';
const powerOn = '50 05 4b 46 7f ff 0c 10 1c : crc=1c YES\n50 05 4b 46 7f ff 0c 10 1c t=85000\n';

/** A temp dir shaped like /sys/bus/w1/devices, with w1_slave files the test rewrites between polls. */
class Bus {
  constructor(readonly dir: string) {}

  static async create(t: Teardown): Promise<Bus> {
    const root = await mkdtemp(join(tmpdir(), 'hearth-w1-'));
    t.teardown(() => rm(root, { recursive: true, force: true }));
    return new Bus(join(root, 'devices'));
  }

  async write(id: string, text: string): Promise<void> {
    await mkdir(join(this.dir, id), { recursive: true });
    await writeFile(join(this.dir, id, 'w1_slave'), text);
  }

  /** The kernel removes a slave's directory once it stops answering the bus search. */
  async unplug(id: string): Promise<void> {
    await rm(join(this.dir, id), { recursive: true, force: true });
  }
}

/** The w1_slave file's text, counting reads per sensor id so a test can wait for the next poll instead of sleeping. */
class CountingReader {
  private readonly counts = new Map<string, number>();
  private readonly started = new Map<string, number>();
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];
  /** Ids whose reads never finish (a hung bus). */
  readonly hung = new Set<string>();
  /** The most reads that were under way at once. */
  maxActive = 0;
  private active = 0;

  readonly read = async (path: string): Promise<string> => {
    const id = path.split('/').at(-2) ?? '';
    this.started.set(id, this.attempts(id) + 1);
    if (this.hung.has(id)) return new Promise<string>(() => {});
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      // Read synchronously: the returned promise is settled before the driver's read timeout is even armed, so a
      // healthy sensor can never lose the race to the 50 ms timeout on a loaded machine; only `hung` reads time out.
      return readFileSync(path, 'utf8');
    } finally {
      this.active--;
      this.counts.set(id, this.count(id) + 1);
      for (const w of this.waiters.filter((x) => x.check())) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  /** Reads begun (stuck ones included). */
  attempts(id: string): number {
    return this.started.get(id) ?? 0;
  }

  count(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /** Resolves once `id` has been read `n` more times (the reads have been handled by then). */
  more(id: string, n: number, ms = 3000): Promise<void> {
    const target = this.count(id) + n;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${id}: fewer than ${target} reads within ${ms} ms`)), ms);
      this.waiters.push({
        check: () => this.count(id) >= target,
        // Let the poller handle the read it just got before the test looks.
        resolve: () =>
          setImmediate(() => {
            clearTimeout(timer);
            resolve();
          }),
      });
    });
  }
}

interface Started {
  readonly core: Core;
  readonly log: ReturnType<typeof recordingLogger>;
  readonly reader: CountingReader;
}

async function start(t: Teardown, yaml: string, options: OnewireDriverOptions = {}): Promise<Started> {
  const log = recordingLogger();
  const core = newCore(log);
  const reader = new CountingReader();
  const issues: ConfigIssue[] = [];
  const config = parseOnewireSection(parse(yaml) as JsonValue, ['onewire'], issues);
  if (issues.length > 0 || config === undefined) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const driver = new OnewireDriver({ core, log, owner: 'onewire', dataDir: '' }, config, {
    readText: reader.read,
    backoff: FAST_BACKOFF,
    ...options,
  });
  await driver.start();
  t.teardown(() => driver.stop());
  return { core, log, reader };
}

function warnings(lines: readonly LogLine[], text: string): LogLine[] {
  return lines.filter((l) => l.level === 'warn' && JSON.stringify(l).includes(text));
}

t.test('listed sensors: Home Assistant attributes, one device each, values at their precision', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(23125));
  await bus.write(SOIL, good(18437));
  const { core, reader } = await start(
    t,
    `
base_path: ${bus.dir}
poll_interval: 0.05
sensors:
  - {id: ${GREENHOUSE}, name: Greenhouse temperature, area: Greenhouse}
  - {id: ${SOIL}, name: Soil, object_id: soil_temperature, precision: 2, offset: -0.3}
`,
  );
  const s = await waitForState(core, 'sensor.greenhouse_temperature', (s) => s.state !== 'unknown');
  t.equal(s.state, '23.1', 'rounded to 1 decimal by default');
  t.same(s.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: 'Greenhouse temperature',
  });
  const soil = await waitForState(core, 'sensor.soil_temperature', (s) => s.state !== 'unknown');
  t.equal(soil.state, '18.14', '18.437 - 0.3 at 2 decimals');

  const devices = [...core.devices.all()];
  t.equal(devices.length, 2);
  const entity = core.entities.get('sensor.greenhouse_temperature');
  t.match(core.devices.get(entity?.deviceId ?? ''), {
    name: 'Greenhouse temperature',
    manufacturer: 'Maxim Integrated (Analog Devices)',
    model: 'DS18B20',
    serial_number: '0316a2791fff',
    identifiers: [['onewire', GREENHOUSE]],
  });
  t.not(core.entities.get('sensor.soil_temperature')?.deviceId, entity?.deviceId, 'each sensor is its own device');
  await reader.more(SOIL, 3);
  t.equal(reader.maxActive, 1, 'one read at a time on the bus (each holds a thread-pool thread for ~750 ms on a Pi)');
});

t.test('a new value between polls fires one change; a rewrite that rounds the same fires nothing', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(23125));
  const { core, reader } = await start(t, `base_path: ${bus.dir}\npoll_interval: 0.05\nsensors:\n  - {id: ${GREENHOUSE}, name: GH}\n`);
  await waitForState(core, 'sensor.gh', (s) => s.state === '23.1');
  const seen = recordStates(t, core, 'sensor.gh');
  await bus.write(GREENHOUSE, good(23062)); // 23.062 -> "23.1" as well
  await reader.more(GREENHOUSE, 3);
  t.same(seen, [], 'same rounded value: no state_changed');
  await bus.write(GREENHOUSE, good(-1250));
  await waitForState(core, 'sensor.gh', (s) => s.state === '-1.3');
  await bus.write(GREENHOUSE, good(24000));
  await waitForState(core, 'sensor.gh', (s) => s.state === '24.0');
  t.same(seen, ['-1.3', '24.0']);
});

t.test('unplugged (missing file) -> unavailable, logged once, retried with backoff -> recovers', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(21000));
  const { core, log, reader } = await start(t, `base_path: ${bus.dir}\npoll_interval: 0.05\nsensors:\n  - {id: ${GREENHOUSE}, name: GH}\n`);
  await waitForState(core, 'sensor.gh', (s) => s.state === '21.0');
  await bus.unplug(GREENHOUSE);
  const s = await waitForState(core, 'sensor.gh', (s) => s.state === 'unavailable');
  t.same(s.attributes, { state_class: 'measurement', unit_of_measurement: '°C', device_class: 'temperature', friendly_name: 'GH' });
  await reader.more(GREENHOUSE, 3);
  const warned = warnings(log.lines, 'not answering');
  t.equal(warned.length, 1, 'logged once, not on every retry');
  t.match(warned[0]?.obj, { device: `DS18B20 ${GREENHOUSE}`, err: /w1_slave does not exist: the sensor is unplugged or not on the bus/ });

  await bus.write(GREENHOUSE, good(21500));
  await waitForState(core, 'sensor.gh', (s) => s.state === '21.5');
  await reader.more(GREENHOUSE, 1);
  t.equal(log.lines.filter((l) => l.msg.includes('answers again')).length, 1);
});

t.test('a CRC NO or the 85 °C power-on value is a failed read, not a temperature', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(20000));
  const { core, log } = await start(t, `base_path: ${bus.dir}\npoll_interval: 0.05\nsensors:\n  - {id: ${GREENHOUSE}, name: GH}\n`);
  await waitForState(core, 'sensor.gh', (s) => s.state === '20.0');
  const seen = recordStates(t, core, 'sensor.gh');
  await bus.write(GREENHOUSE, badCrc);
  await waitForState(core, 'sensor.gh', (s) => s.state === 'unavailable');
  await bus.write(GREENHOUSE, good(20100));
  await waitForState(core, 'sensor.gh', (s) => s.state === '20.1');
  await bus.write(GREENHOUSE, powerOn);
  await waitForState(core, 'sensor.gh', (s) => s.state === 'unavailable');
  await bus.write(GREENHOUSE, good(20100));
  await waitForState(core, 'sensor.gh', (s) => s.state === '20.1');
  t.same(seen, ['unavailable', '20.1', 'unavailable', '20.1'], 'never 85.0');
  t.match(
    warnings(log.lines, 'not answering').map((l) => l.obj.err),
    [/CRC check failed/, /85 °C, the power-on value/],
  );
});

t.test('a read that hangs times out: unavailable, no second read of it piles up, the other sensors carry on', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(20000));
  await bus.write(SOIL, good(15000));
  const { core, log, reader } = await start(
    t,
    `base_path: ${bus.dir}\npoll_interval: 0.05\nsensors:\n  - {id: ${GREENHOUSE}, name: GH}\n  - {id: ${SOIL}, name: Soil}\n`,
    { readTimeoutMs: 50 },
  );
  await waitForState(core, 'sensor.gh', (s) => s.state === '20.0');
  reader.hung.add(GREENHOUSE);
  const before = reader.attempts(GREENHOUSE);
  await waitForState(core, 'sensor.gh', (s) => s.state === 'unavailable');
  t.match(warnings(log.lines, 'not answering')[0]?.obj.err, /took longer than 50 ms/);
  await bus.write(SOIL, good(16000));
  await waitForState(core, 'sensor.soil', (s) => s.state === '16.0');
  await reader.more(SOIL, 3);
  t.equal(reader.attempts(GREENHOUSE), before + 1, 'the stuck file is not read again while its read is stuck');
  t.equal(log.lines.filter((l) => l.level === 'warn').length, 1);
});

t.test('discovery: every temperature sensor on the bus gets an entity; new ones are found on the next scan', async (t) => {
  const bus = await Bus.create(t);
  await bus.write(GREENHOUSE, good(19000));
  await mkdir(join(bus.dir, 'w1_bus_master1'), { recursive: true });
  await mkdir(join(bus.dir, '3a-0000001bbe2f'), { recursive: true }); // a DS2413 switch: not a thermometer
  const { core, log } = await start(t, `base_path: ${bus.dir}\npoll_interval: 0.05\n`, { rescanMs: 50 });
  const s = await waitForState(core, 'sensor.ds18b20_0316a2791fff', (s) => s.state === '19.0');
  t.equal(s.attributes.friendly_name, 'DS18B20 0316a2791fff');
  await bus.write('10-000802b5c0f3', good(18500));
  const s2 = await waitForState(core, 'sensor.ds18s20_000802b5c0f3', (s) => s.state === '18.5');
  t.equal(s2.attributes.device_class, 'temperature');
  const entity = core.entities.get('sensor.ds18s20_000802b5c0f3');
  t.equal(core.devices.get(entity?.deviceId ?? '')?.model, 'DS18S20');
  t.equal(core.entities.size, 2, 'the bus master and the DS2413 are not sensors');
  t.equal(log.lines.filter((l) => l.msg.startsWith('1-Wire: found')).length, 2);
});

t.test('1-Wire not enabled: logged once with how to enable it; sensors appear once the bus does', async (t) => {
  const bus = await Bus.create(t);
  const { core, log } = await start(t, `base_path: ${bus.dir}\npoll_interval: 0.05\n`, { rescanMs: 50 });
  await waitUntilWarned(log, 'dtoverlay=w1-gpio');
  await bus.write(SOIL, good(15000));
  await waitForState(core, 'sensor.ds18b20_3c01d607d4aa', (s) => s.state === '15.0');
  t.equal(warnings(log.lines, 'dtoverlay=w1-gpio').length, 1);
});

/** Waits for a warning to be logged: the logger is checked on each of its own writes. */
function waitUntilWarned(log: ReturnType<typeof recordingLogger>, text: string, ms = 3000): Promise<void> {
  const has = () => warnings(log.lines, text).length > 0;
  if (has()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no warning with ${text}`)), ms);
    const push = log.lines.push.bind(log.lines);
    log.lines.push = (...items: LogLine[]) => {
      const n = push(...items);
      if (has()) {
        clearTimeout(timer);
        log.lines.push = push;
        resolve();
      }
      return n;
    };
  });
}
