import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { parseGpioSection } from '../../../drivers/gpio/config.js';
import { FakeGpioBackend } from '../../../drivers/gpio/fake-backend.js';
import { GpioDriver } from '../../../drivers/gpio/index.js';
import { parseOnewireSection } from '../../../drivers/onewire/config.js';
import { OnewireDriver } from '../../../drivers/onewire/index.js';
import { parseVirtualSection, VirtualDriver } from '../../../drivers/virtual/index.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import type { Logger } from '../../../src/core/log.js';
import { addSensor } from '../../../src/domains/sensor.js';
import { addSwitch } from '../../../src/domains/switch.js';
import { newCore, recordingLogger, type Teardown } from '../gpio/helpers.js';

/**
 * One rule for an entity id that is already taken, in every driver kind (I2C and serial: their own tests;
 * Zigbee: two devices of one name): an id another entity holds gives the next free `_2`; a unit whose platform
 * and unique id are already live is refused with one log line and leaves no device behind; the rest runs.
 */

const PI4 = fileURLToPath(new URL('../../fixtures/gpio/pi4-6.6', import.meta.url));
const GREENHOUSE = '28-0316a2791fff';
const SOIL = '28-3c01d607d4aa';

function section<T>(parseSection: (v: JsonValue, path: string[], issues: ConfigIssue[]) => T, yaml: string): T {
  const issues: ConfigIssue[] = [];
  const config = parseSection(parse(yaml) as JsonValue, ['section'], issues);
  if (issues.length > 0) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  return config;
}

interface Kind {
  readonly name: string;
  /** Starts the driver on `core` (owner: the kind's platform); returns how to stop it. */
  start(t: Teardown, core: Core, log: Logger): Promise<void>;
  /** An entity id the driver asks for, and another one of the same driver. */
  readonly id: string;
  readonly other: string;
  /** Pre-adds an entity with the driver's own platform and unique id for `id` (a duplicate); undefined when it cannot be made. */
  readonly duplicate?: (core: Core) => void;
}

async function oneWireBus(t: Teardown): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-w1-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  for (const id of [GREENHOUSE, SOIL]) {
    await mkdir(join(root, id), { recursive: true });
    await writeFile(join(root, id, 'w1_slave'), '72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n');
  }
  return root;
}

const KINDS: readonly Kind[] = [
  {
    name: 'GPIO',
    id: 'switch.pump',
    other: 'switch.heater',
    async start(t, core, log) {
      const config = section(
        parseGpioSection,
        `sysfs_root: ${PI4}\npoll_interval: 0.05\ndevices:\n  - name: Board\n    switches:\n      - {pin: 17, name: Pump}\n      - {pin: 27, name: Heater}\n`,
      );
      if (config === undefined) throw new Error('no GPIO configuration');
      const fake = new FakeGpioBackend();
      const driver = new GpioDriver({ core, log, owner: 'gpio', dataDir: '' }, config, { backend: async () => fake });
      await driver.start();
      t.teardown(() => driver.stop());
    },
  },
  {
    name: '1-Wire',
    id: 'sensor.greenhouse',
    other: 'sensor.soil',
    duplicate: (core) =>
      addSensor(core, { entityId: 'sensor.greenhouse', owner: 'onewire', uniqueId: `onewire-${GREENHOUSE}-temperature` }),
    async start(t, core, log) {
      const basePath = await oneWireBus(t);
      const config = section(
        parseOnewireSection,
        `base_path: ${basePath}\nsensors:\n  - {id: ${GREENHOUSE}, name: Greenhouse}\n  - {id: ${SOIL}, name: Soil}\n`,
      );
      if (config === undefined) throw new Error('no 1-Wire configuration');
      const driver = new OnewireDriver({ core, log, owner: 'onewire', dataDir: '' }, config, {});
      await driver.start();
      t.teardown(() => driver.stop());
    },
  },
  {
    name: 'virtual',
    id: 'switch.lamp',
    other: 'switch.radio',
    duplicate: (core) => addSwitch(core, { entityId: 'switch.lamp', owner: 'virtual', platform: { turnOn() {}, turnOff() {} } }),
    async start(t, core, log) {
      const issues: ConfigIssue[] = [];
      const items = parseVirtualSection(
        [
          { platform: 'switch', name: 'Lamp' },
          { platform: 'switch', name: 'Radio' },
        ],
        ['virtual'],
        issues,
      );
      const driver = new VirtualDriver({ core, log, owner: 'virtual', dataDir: '' }, { items });
      await driver.start();
      t.teardown(() => driver.stop());
    },
  },
];

for (const kind of KINDS) {
  t.test(`${kind.name}: an id another driver holds gives the next free _2`, async (t) => {
    const log = recordingLogger();
    const core = newCore(log);
    addSensor(core, { entityId: kind.id, owner: 'elsewhere', uniqueId: 'elsewhere-1' });
    await kind.start(t, core, log);
    t.equal(core.entities.get(kind.id)?.owner, 'elsewhere', 'the holder keeps its id');
    t.ok(core.entities.get(`${kind.id}_2`), `${kind.id}_2 is added`);
    t.ok(core.entities.get(kind.other), 'and the rest');
    t.same(
      log.lines.filter((l) => l.level === 'error'),
      [],
      'no error',
    );
  });

  const duplicate = kind.duplicate;
  if (duplicate === undefined) continue;
  t.test(`${kind.name}: a duplicate unique id is refused with one line, no device left behind; the rest runs`, async (t) => {
    const log = recordingLogger();
    const core = newCore(log);
    duplicate(core);
    const devicesBefore = [...core.devices.all()].length;
    await kind.start(t, core, log);
    const errors = log.lines.filter((l) => l.level === 'error');
    t.equal(errors.length, 1, 'one line');
    t.match(errors[0]?.msg, 'not added');
    t.match(String(errors[0]?.obj.err), /Platform \S+ does not generate unique IDs/);
    t.notOk(core.entities.get(`${kind.id}_2`), 'no second entity for the same identity');
    const other = core.entities.get(kind.other);
    t.ok(other, 'the rest runs');
    const devices = [...core.devices.all()];
    t.equal(devices.length, devicesBefore + 1, 'only the device of the rest: the refused unit left no orphan entry');
    t.equal(devices.at(-1)?.id, other?.deviceId);
  });
}
