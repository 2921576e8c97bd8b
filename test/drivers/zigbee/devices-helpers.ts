import { setLogger } from 'zigbee-herdsman-converters';
import { createDeviceEntities, type ZigbeeDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import type { DeviceEntitiesHost, ZigbeeDevice, ZigbeeMessage } from '../../../drivers/zigbee/types.js';
import { Core } from '../../../src/core/core.js';
import type { JsonObject } from '../../../src/core/json.js';
import type { Logger } from '../../../src/core/log.js';
import { silentLogger } from '../../../src/core/log.js';
import { binarySensorDomain } from '../../../src/domains/binary-sensor.js';
import { buttonDomain } from '../../../src/domains/button.js';
import { climateDomain } from '../../../src/domains/climate-services.js';
import { coverDomain } from '../../../src/domains/cover.js';
import { fanDomain } from '../../../src/domains/fan.js';
import { lightDomain } from '../../../src/domains/light-services.js';
import { lockDomain } from '../../../src/domains/lock.js';
import { numberDomain } from '../../../src/domains/number.js';
import { selectDomain } from '../../../src/domains/select.js';
import { sensorDomain } from '../../../src/domains/sensor.js';
import { sirenDomain } from '../../../src/domains/siren.js';
import { switchDomain } from '../../../src/domains/switch.js';
import { textDomain } from '../../../src/domains/text.js';
import { updateDomain } from '../../../src/domains/update.js';

/**
 * A stand-in for herdsman's Device and Endpoint at the point the converters touch them, for the mapping and
 * converter tests before the fake adapter drives a real Controller (zigbee-devices-hub.test.ts does that).
 * It records what the converters send and can be told to fail, as a device out of range would.
 */
export interface SentCommand {
  readonly endpoint: number;
  readonly kind: 'command' | 'write' | 'read';
  readonly cluster: string | number;
  readonly command: string;
  readonly payload: unknown;
}

// Named as herdsman's classes: the converters tell endpoints from groups by constructor name.
class Endpoint {
  readonly clusters: Record<string, { attributes: Record<string, unknown> }> = {};
  readonly binds: unknown[] = [];
  readonly inputClusters: number[] = [];
  readonly outputClusters: number[] = [];
  constructor(
    readonly ID: number,
    private readonly sent: SentCommand[],
    private readonly failure: { error?: Error },
    private readonly device: unknown,
  ) {}
  get deviceIeeeAddress(): string {
    return (this.device as { ieeeAddr: string }).ieeeAddr;
  }
  private record(kind: SentCommand['kind'], cluster: string | number, command: string, payload: unknown): void {
    if (this.failure.error) throw this.failure.error;
    this.sent.push({ endpoint: this.ID, kind, cluster, command, payload });
  }
  async command(cluster: string | number, command: string, payload: unknown): Promise<undefined> {
    this.record('command', cluster, command, payload);
    return undefined;
  }
  async write(cluster: string | number, attributes: unknown): Promise<void> {
    this.record('write', cluster, 'write', attributes);
  }
  async read(cluster: string | number, attributes: unknown): Promise<Record<string, unknown>> {
    this.record('read', cluster, 'read', attributes);
    return {};
  }
  async bind(): Promise<void> {}
  async configureReporting(): Promise<void> {}
  getClusterAttributeValue(cluster: string, attribute: string): unknown {
    return this.clusters[cluster]?.attributes[attribute];
  }
  supportsInputCluster(): boolean {
    return true;
  }
  supportsOutputCluster(): boolean {
    return true;
  }
  getDevice(): unknown {
    return this.device;
  }
  saveClusterAttributeKeyValue(cluster: string, values: Record<string, unknown>): void {
    this.clusters[cluster] = { attributes: { ...this.clusters[cluster]?.attributes, ...values } };
  }
}

export interface StubDeviceInit {
  readonly ieee: string;
  readonly modelID: string;
  readonly manufacturerName: string;
  readonly endpoints?: readonly number[];
  readonly softwareBuildID?: string;
  readonly dateCode?: string;
  /** Attribute values herdsman would have cached on the first endpoint (divisors, multipliers). */
  readonly attributes?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

class Device {
  readonly sent: SentCommand[] = [];
  readonly failure: { error?: Error } = {};
  readonly endpoints: Endpoint[];
  readonly ieeeAddr: string;
  readonly modelID: string;
  readonly manufacturerName: string;
  readonly softwareBuildID: string | undefined;
  readonly dateCode: string | undefined;
  readonly type = 'Router';
  readonly powerSource = 'Mains (single phase)';
  readonly interviewState = 'SUCCESSFUL';
  readonly customClusters: Record<string, unknown> = {};
  readonly meta: Record<string, unknown> = {};
  readonly networkAddress = 0x1234;
  readonly manufacturerID = 0;
  readonly applicationVersion = undefined;
  readonly hardwareVersion = undefined;
  constructor(init: StubDeviceInit) {
    this.ieeeAddr = init.ieee;
    this.modelID = init.modelID;
    this.manufacturerName = init.manufacturerName;
    this.softwareBuildID = init.softwareBuildID;
    this.dateCode = init.dateCode;
    this.endpoints = (init.endpoints ?? [1]).map((id) => new Endpoint(id, this.sent, this.failure, this));
    for (const [cluster, values] of Object.entries(init.attributes ?? {})) this.endpoints[0]?.saveClusterAttributeKeyValue(cluster, values);
  }
  getEndpoint(id: number): Endpoint | undefined {
    return this.endpoints.find((e) => e.ID === id);
  }
  save(): void {}
  addCustomCluster(name: string, cluster: unknown): void {
    (this.customClusters as Record<string, unknown>)[name] = cluster;
  }
  get zh(): ZigbeeDevice {
    return this as unknown as ZigbeeDevice;
  }
}

export { Device as StubDevice, Endpoint as StubEndpoint };

type StubDevice = Device;

// The converters log their definition lookups to the console unless told otherwise.
const quiet = () => {};
setLogger({ debug: quiet, info: quiet, warning: quiet, error: quiet });

export const COORDINATOR_IEEE = '0x00124b0000c0ffee';

export interface ZigbeeTestbed {
  readonly core: Core;
  readonly options: Record<string, JsonObject>;
  readonly host: DeviceEntitiesHost;
  add(device: StubDevice, name: string): Promise<ZigbeeDeviceEntities>;
}

/** A core with every domain, a coordinator in the device registry, and a host for device entities. */
/** A core with the domains Zigbee devices use. */
export function coreWithDomains(log: Logger = silentLogger): Core {
  const core = new Core({ log });
  const domains = [
    lightDomain,
    switchDomain,
    sensorDomain,
    binarySensorDomain,
    coverDomain,
    lockDomain,
    climateDomain,
    fanDomain,
    sirenDomain,
  ];
  for (const d of [...domains, selectDomain, numberDomain, textDomain, buttonDomain, updateDomain]) {
    d.registerServices(core);
  }
  return core;
}

export function zigbeeTestbed(log: Logger = silentLogger, given?: Core): ZigbeeTestbed {
  // A given core (an automation test's) has its domains already.
  const core = given ?? coreWithDomains(log);
  core.devices.register({ identifiers: [['zigbee', COORDINATOR_IEEE]], name: 'Zigbee coordinator', owner: 'zigbee' });
  const options: Record<string, JsonObject> = {};
  const host: DeviceEntitiesHost = {
    ctx: { core, log, owner: 'zigbee', dataDir: '' },
    coordinator: ['zigbee', COORDINATOR_IEEE],
    deviceOptions: (ieee) => options[ieee] ?? {},
  };
  return {
    core,
    options,
    host,
    add: async (device, name) => (await createDeviceEntities(host, device.zh, name)) as ZigbeeDeviceEntities,
  };
}

/** The converters drop a repeated transaction number (a retransmission), so each message gets the next one. */
let sequence = 0;

/** A herdsman `message` event as the controller hands it over. */
export function zclMessage(
  device: StubDevice,
  cluster: string,
  type: ZigbeeMessage['type'],
  data: Record<string, unknown>,
  endpoint = 1,
  linkquality = 120,
): ZigbeeMessage {
  sequence = (sequence + 1) % 256;
  return {
    type,
    device: device.zh,
    endpoint: device.getEndpoint(endpoint) as unknown as ZigbeeMessage['endpoint'],
    linkquality,
    groupID: 0,
    cluster,
    data,
    meta: { zclTransactionSequenceNumber: sequence, rawData: Buffer.alloc(0) },
  } as ZigbeeMessage;
}

export const DEVICES = {
  bulb: {
    ieee: '0x000d6ffffe1a2b3c',
    modelID: 'TRADFRI bulb E27 WS opal 980lm',
    manufacturerName: 'IKEA of Sweden',
    softwareBuildID: '2.0.029',
    dateCode: '20170905',
  },
  weather: { ieee: '0x00158d0001a2b3c4', modelID: 'lumi.weather', manufacturerName: 'LUMI' },
  contact: { ieee: '0x00158d0001c0ffee', modelID: 'lumi.sensor_magnet.aq2', manufacturerName: 'LUMI' },
  plug: {
    ieee: '0xa4c1380000000001',
    modelID: 'TS011F',
    manufacturerName: '_TZ3000_gjnozsaz',
    attributes: {
      haElectricalMeasurement: {
        acCurrentDivisor: 1000,
        acCurrentMultiplier: 1,
        acPowerDivisor: 1,
        acPowerMultiplier: 1,
        acVoltageDivisor: 1,
        acVoltageMultiplier: 1,
      },
      seMetering: { divisor: 100, multiplier: 1 },
    },
  },
  dimmer: { ieee: '0x0017880100000001', modelID: 'RWL021', manufacturerName: 'Philips', endpoints: [1, 2] },
  trv: { ieee: '0x0014290000000001', modelID: 'eTRV0100', manufacturerName: 'Danfoss' },
  unknown: { ieee: '0x0000000000000bad', modelID: 'XYZ-1000', manufacturerName: 'Nobody Ltd' },
} as const satisfies Record<string, StubDeviceInit>;
