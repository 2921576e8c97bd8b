// matter.js (@matter/main), loaded only when a `matter:` section runs a bridge, and the small part of its surface the
// bridge uses, typed here: the compiler would otherwise read matter.js's declarations, which need the DOM's types.
// Every module is imported through matterModule(), from node_modules when run from the sources; in the built hub,
// scripts/bundle.mjs makes that one import a lookup in hearth/matter.cjs, a minified bundle of MATTER_MODULES.
import type { Logger } from '../core/log.js';
import { bridgeStorageDriver, type KvDriver } from './bridge-storage.js';
import { type MatterTime, shortenReportDelay } from './report-timer.js';

/** Device types and behaviours one module each: their indexes load every one of Matter's (57 MB more). */
const DEVICE_MODULES = [
  'on-off-light',
  'dimmable-light',
  'color-temperature-light',
  'extended-color-light',
  'on-off-plug-in-unit',
  'fan',
  'window-covering',
  'door-lock',
  'thermostat',
  'temperature-sensor',
  'humidity-sensor',
  'light-sensor',
  'occupancy-sensor',
  'contact-sensor',
];
const BEHAVIOR_MODULES = ['bridged-device-basic-information', 'window-covering', 'thermostat', 'occupancy-sensing'];

/** Every module of matter.js the hub imports, by path under `@matter/` (scripts/bundle.mjs bundles these). */
export const MATTER_MODULES: readonly string[] = [
  'nodejs/config',
  'main',
  'nodejs',
  'main/protocol',
  'main/endpoints/aggregator',
  ...DEVICE_MODULES.map((name) => `main/devices/${name}`),
  ...BEHAVIOR_MODULES.map((name) => `main/behaviors/${name}`),
];

/**
 * What the hub takes from MATTER_MODULES that are package indexes, by name: the built hub's bundle holds only these
 * and what they need (scripts/bundle.mjs), not all of matter.js the indexes export (its controller side, every cluster).
 */
export const MATTER_NAMES: Readonly<Record<string, readonly string[]>> = {
  main: ['Time', 'ServerSubscription', 'Logger', 'Environment', 'StorageService', 'Filesystem', 'Endpoint', 'ServerNode', 'VendorId'],
  nodejs: ['NodeJsFilesystem', 'FileStorageDriver', 'DirectoryBlobStorageDriver'],
  'main/protocol': ['MdnsService', 'SessionManager', 'ShutdownError'],
};

/**
 * matter.js's Node.js settings (`@matter/nodejs/config`), set before it builds its default environment: no process
 * arguments, environment variables or config file of its own, no signal or error traps (the hub has them), and no
 * default storage in the home directory.
 */
export const MATTER_CONFIG: Readonly<Record<string, boolean>> = {
  loadProcessArgv: false,
  loadProcessEnv: false,
  loadConfigFile: false,
  trapProcessSignals: false,
  trapUnhandledErrors: false,
  setProcessExitCodeOnError: false,
  initializeStorage: false,
};

const MATTER_SCOPE: string = '@matter/';

/** One of MATTER_MODULES: the one import of matter.js, which scripts/bundle.mjs rewrites for the built hub. */
function matterModule<T>(path: string): Promise<Record<string, T>> {
  return import(`${MATTER_SCOPE}${path}`) as Promise<Record<string, T>>;
}

/**
 * The modules' names in one object. Copied as they are defined: the built hub's bundle gives a device type it loads only
 * when first used (door locks, thermostats, window coverings: LAZY_GROUPS in scripts/bundle-matter.mjs) as getters, which
 * Object.assign would read.
 */
async function modules<T>(folder: string, names: readonly string[]): Promise<Record<string, T>> {
  const loaded = await Promise.all(names.map((name) => matterModule<T>(`${folder}/${name}`)));
  const all = Object.create(null) as Record<string, T>;
  for (const module of loaded)
    for (const [name, property] of Object.entries(Object.getOwnPropertyDescriptors(module)))
      Object.defineProperty(all, name, { ...property, configurable: true });
  return all;
}

/** Attribute values by cluster (behaviour) id: `{ onOff: { onOff: true } }`. */
export type Patch = Record<string, Record<string, unknown>>;

export interface Observable {
  on(fn: (value: never, old: never) => void): void;
}

/** A matter.js endpoint type (a device type with its behaviours). */
export interface EndpointType {
  with(...behaviors: unknown[]): EndpointType;
  readonly deviceType: number;
}

/** A behaviour class (a cluster server) that can be given features. */
export interface BehaviorType {
  with(...features: string[]): BehaviorType;
}

export interface MatterEndpoint {
  readonly number: number | undefined;
  readonly id: string;
  readonly state: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly events: Readonly<Record<string, Readonly<Record<string, Observable>>>>;
  set(values: Patch): Promise<void>;
  add(endpoint: MatterEndpoint): Promise<void>;
  close(): Promise<void>;
  delete(): Promise<void>;
}

export interface MatterServerNode extends MatterEndpoint {
  start(): Promise<void>;
  readonly lifecycle: { readonly isCommissioned: boolean };
}

interface Environment {
  readonly vars: { set(name: string, value: unknown): void };
  close(type: unknown): unknown;
  set(type: unknown, instance: unknown): void;
  has(type: unknown): boolean;
}

interface LogMessage {
  readonly level: number;
  readonly facility: string;
}

/** What the bridge takes from matter.js. */
export interface MatterLib {
  readonly Endpoint: new (type: EndpointType, options: Record<string, unknown>) => MatterEndpoint;
  readonly ServerNode: { create(options: Record<string, unknown>): Promise<MatterServerNode> };
  readonly VendorId: (id: number) => number;
  readonly devices: Readonly<Record<string, EndpointType>>;
  readonly behaviors: Readonly<Record<string, BehaviorType>>;
  readonly AggregatorEndpoint: EndpointType;
  /** An environment of the bridge's own whose files all go under `dir`. */
  environment(name: string, dir: string): unknown;
  /** Closes matter.js's one mDNS service (shared by every node in the process) once no node needs it. */
  closeMdns(): Promise<void>;
  /**
   * For a node about to close, what ends its sessions at once, without waiting for its peers: matter.js's close flushes
   * each subscription and waits for the peer's acknowledgement, through all its retransmissions if the peer has gone.
   * Taken before the close starts, while the node's environment still holds the sessions' manager.
   */
  sessionDropper(node: MatterServerNode): () => Promise<void>;
}

interface ClosingSession {
  initiateForceClose(context: { cause: Error }): Promise<void>;
}
interface NodeEnvironment {
  has(type: unknown): boolean;
  get(type: unknown): { readonly sessions: Iterable<ClosingSession> };
}

let loading: Promise<MatterLib> | undefined;
let logTo: Logger | undefined;

/** Loads matter.js once; its log goes to `log` (warnings and errors only). */
export function loadMatter(log: Logger): Promise<MatterLib> {
  logTo = log;
  loading ??= load();
  return loading;
}

async function load(): Promise<MatterLib> {
  // The built hub's bundle has set these as it loaded (matter.js refuses them once its environment is built).
  const { config } = (await matterModule('nodejs/config')) as { config: Record<string, unknown> };
  if (Object.entries(MATTER_CONFIG).some(([key, value]) => config[key] !== value)) Object.assign(config, MATTER_CONFIG);
  const main = await matterModule<unknown>('main');
  if (!shortenReportDelay(main.Time as MatterTime, main.ServerSubscription))
    logTo?.warn("Matter reports wait for matter.js's 50 ms delay: its subscriptions are not the ones hearth knows");
  const nodejs = await matterModule<unknown>('nodejs');
  const devices = await modules<EndpointType>('main/devices', DEVICE_MODULES);
  const behaviors = await modules<BehaviorType>('main/behaviors', BEHAVIOR_MODULES);
  const endpoints = await modules<EndpointType>('main/endpoints', ['aggregator']);
  const protocol = await matterModule<unknown>('main/protocol');
  routeLog(main.Logger as { destinations: Record<string, Record<string, unknown>>; format: string });
  const Env = main.Environment as { default: Environment } & (new (name: string, parent: Environment) => Environment);
  const Storage = main.StorageService as new (
    env: Environment,
  ) => {
    registerDriver(d: unknown): void;
    registerBlobDriver(d: unknown): void;
    defaultDriver: string;
    defaultBlobDriver: string;
  };
  const Filesystem = nodejs.NodeJsFilesystem as new (dir: string) => unknown;
  const aggregator = endpoints.AggregatorEndpoint;
  if (aggregator === undefined) throw new Error('matter.js has no AggregatorEndpoint');
  return {
    Endpoint: main.Endpoint as MatterLib['Endpoint'],
    ServerNode: main.ServerNode as MatterLib['ServerNode'],
    VendorId: main.VendorId as MatterLib['VendorId'],
    devices,
    behaviors,
    AggregatorEndpoint: aggregator,
    environment(name, dir) {
      const env = new Env(name, Env.default);
      env.set(main.Filesystem, new Filesystem(dir));
      const storage = new Storage(env);
      // The bridged endpoints' attribute values in memory: no SD-card write per state change (bridge-storage.ts).
      storage.registerDriver(bridgeStorageDriver(nodejs.FileStorageDriver as new (ns: unknown) => KvDriver));
      storage.registerBlobDriver(nodejs.DirectoryBlobStorageDriver);
      storage.defaultDriver = 'file';
      storage.defaultBlobDriver = 'dir';
      return env;
    },
    async closeMdns() {
      if (Env.default.has(protocol.MdnsService)) await Env.default.close(protocol.MdnsService);
    },
    sessionDropper(node) {
      const env = (node as unknown as { readonly env: NodeEnvironment }).env;
      const manager = env.has(protocol.SessionManager) ? env.get(protocol.SessionManager) : undefined;
      return async () => {
        if (manager === undefined) return;
        const cause = new (protocol.ShutdownError as new (message: string) => Error)('Session closed by node shutdown');
        // A session already closing ignores this; the close under way goes on with its exchanges ended.
        const sessions = [...manager.sessions];
        await Promise.all(sessions.map((session) => session.initiateForceClose({ cause }).catch(() => {})));
      };
    },
  };
}

/** matter.js's own log (chatty, coloured, to the console) goes to the hub's log: warnings and errors, one line each. */
function routeLog(logger: { destinations: Record<string, Record<string, unknown>>; format: string }): void {
  logger.format = 'plain';
  const dest = logger.destinations.default;
  if (dest === undefined) return;
  dest.level = 3;
  const write = (text: string, message: LogMessage): void => {
    const line = text.trim().slice(0, 2000);
    if (message.level >= 4) logTo?.error({ facility: message.facility }, 'matter.js: %s', line);
    else logTo?.warn({ facility: message.facility }, 'matter.js: %s', line);
  };
  dest.write = write;
}
