// The HomeKit bridge on hap-nodejs (Homebridge's core): the selected entities as bridged accessories, pairings and
// accessory ids kept under <data>/homekit so Apple Home never forgets the bridge, and state both ways in one turn.
import { randomInt } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:net';
import { join, resolve } from 'node:path';
import type * as HAP from 'hap-nodejs';
import { type EntitySelector, entityFilter } from '../config/entity-filter.js';
import type { Component } from '../core/component.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { State } from '../core/state.js';
import type { IntegrationContext } from '../integration/integration.js';
import { jsonOf, readOrCreate } from '../storage/data-file.js';
import { qrSvg } from '../util/qr.js';
import { accessoryFor, type MappedAccessory } from './accessories.js';
import { limitRequests } from './client-limits.js';
import type { HomekitConfig } from './config.js';
import { loadHap } from './load-hap.js';
import { sendEventsEachTurn } from './prompt-events.js';

/** HAP bridges hold at most 150 accessories, the bridge itself included. */
export const MAX_BRIDGED = 149;
const SETUP_FILE = 'setup.json';
/** Codes HAP forbids (HAP specification 5.6.1: trivial and sequential codes). */
const FORBIDDEN = new Set([
  '000-00-000',
  '111-11-111',
  '222-22-222',
  '333-33-333',
  '444-44-444',
  '555-55-555',
  '666-66-666',
  '777-77-777',
  '888-88-888',
  '999-99-999',
  '123-45-678',
  '876-54-321',
]);

export interface HomekitSetup {
  /** The setup code Apple Home asks for (`123-45-678`). */
  readonly pincode: string;
  /** The bridge's HAP id, a MAC address: a new one makes Apple Home see a new bridge. */
  readonly username: string;
  readonly setupId: string;
}

function isSetup(value: unknown): value is HomekitSetup {
  const v = value as Partial<HomekitSetup> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.pincode === 'string' &&
    /^\d{3}-\d{2}-\d{3}$/.test(v.pincode) &&
    typeof v.username === 'string' &&
    typeof v.setupId === 'string'
  );
}

function newSetup(): HomekitSetup {
  let pincode = '';
  do {
    const d = () => String(randomInt(10));
    pincode = `${d()}${d()}${d()}-${d()}${d()}-${d()}${d()}${d()}`;
  } while (FORBIDDEN.has(pincode));
  // A locally administered unicast MAC (second hex digit 2, 6, A or E).
  const bytes = Array.from({ length: 6 }, () => randomInt(256));
  bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
  const username = bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const setupId = Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return { pincode, username, setupId };
}

/**
 * Points hap-nodejs's storage (pairings, accessory ids: node-persist files) at `dir`. Its HAPStorage is one per
 * process and refuses a second path once used; a part started again with another data dir (tests run many hubs in
 * one process) gets a fresh instance instead.
 */
function useStorage(lib: typeof HAP, dir: string): void {
  const holder = lib.HAPStorage as unknown as { INSTANCE: { customStoragePath?: string; localStore?: unknown }; new (): unknown };
  if (holder.INSTANCE.customStoragePath === dir) return;
  if (holder.INSTANCE.localStore !== undefined) holder.INSTANCE = new holder() as typeof holder.INSTANCE;
  lib.HAPStorage.setCustomStoragePath(dir);
}

/**
 * Rejects with the error of hap-nodejs's TCP server (a port in use), which has no listener of its own and would end
 * the process. Attached right after publish() returned, before the server can report anything.
 */
function listenError(bridge: HAP.Bridge): Promise<never> {
  const tcp = (bridge as unknown as { _server?: { httpServer?: { tcpServer?: Server } } })._server?.httpServer?.tcpServer;
  return new Promise((_resolve, reject) => {
    tcp?.once('error', reject);
  });
}

/**
 * hap-nodejs's Bridge queued a check of its configuration for a second after it was built (Accessory.addService), and
 * the accessories added since found it queued. publish() has just made that check, before its first await, over the
 * same accessories: dropped, the check does not go over every accessory again (ids and HAP representation of each,
 * thousands of calls that made V8 optimise functions, docs/performance.md). An accessory added later queues its own.
 */
function dropQueuedConfigurationCheck(bridge: HAP.Bridge): void {
  const internals = bridge as unknown as { configurationChangeDebounceTimeout?: ReturnType<typeof setTimeout> };
  if (internals.configurationChangeDebounceTimeout === undefined) return;
  clearTimeout(internals.configurationChangeDebounceTimeout);
  internals.configurationChangeDebounceTimeout = undefined;
}

export class HomekitBridge implements Component {
  readonly name = 'homekit';
  private bridge: HAP.Bridge | undefined;
  private readonly mapped = new Map<string, MappedAccessory>();
  private setupInfo: HomekitSetup | undefined;
  private hap: typeof HAP | undefined;
  private uri = '';
  private boundPort: number | undefined;
  private readonly selects: EntitySelector;

  constructor(
    private readonly ctx: IntegrationContext,
    private readonly config: HomekitConfig,
    private readonly log: Logger,
  ) {
    this.selects = entityFilter(config.filter.include, config.filter.exclude);
  }

  /** The pairing code and setup URI (for the QR code), once started. */
  get setup(): { readonly pincode: string; readonly setupUri: string } | undefined {
    return this.setupInfo === undefined ? undefined : { pincode: this.setupInfo.pincode, setupUri: this.uri };
  }

  /** The HAP server's port, once published. */
  get port(): number | undefined {
    return this.boundPort;
  }

  /** The setup QR code (Apple Home's camera pairing) as SVG. */
  qrSvg(): Promise<string | undefined> {
    return this.uri === '' ? Promise.resolve(undefined) : qrSvg(this.uri);
  }

  get accessoryCount(): number {
    return this.mapped.size;
  }

  async start(): Promise<void> {
    // Absolute: node-persist (hap-nodejs's storage) puts a relative path under its own folder, in node_modules.
    const dir = resolve(this.ctx.dataDir, 'homekit');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    this.setupInfo = await this.loadSetup(dir);
    const lib = loadHap();
    this.hap = lib;
    useStorage(lib, dir);
    const bridge = new lib.Bridge(this.config.name, lib.uuid.generate(`hearth:bridge:${this.setupInfo.username}`));
    this.bridge = bridge;
    for (const entityId of this.ctx.core.states.entityIds()) this.consider(entityId);
    this.ctx.core.bus.on(this.ctx.owner, 'state_changed', (event) => {
      const { entity_id: entityId, new_state: state } = event.data;
      const mapped = this.mapped.get(entityId);
      if (mapped !== undefined) {
        if (state !== null) mapped.update(state);
      } else if (state !== null) this.consider(entityId);
    });
    const listening = new Promise<number>((resolve) => bridge.once('listening', resolve));
    const published = bridge.publish({
      username: this.setupInfo.username,
      pincode: this.setupInfo.pincode,
      setupID: this.setupInfo.setupId,
      port: this.config.port,
      // Categories.BRIDGE and MDNSAdvertiser.CIAO: const enums, which isolated modules cannot read.
      category: 2 as HAP.Categories,
      bind: this.config.bind === undefined ? undefined : [...this.config.bind],
      addIdentifyingMaterial: false,
      advertiser: 'ciao' as HAP.MDNSAdvertiser,
    });
    dropQueuedConfigurationCheck(bridge);
    await published;
    // publish() returns once it has asked to listen: ready means a controller can connect (and the port is known).
    this.boundPort = await Promise.race([listening, listenError(bridge)]);
    this.uri = bridge.setupURI();
    if (!sendEventsEachTurn(bridge))
      this.log.warn("HomeKit events wait for hap-nodejs's 250 ms timer: its internals are not the ones hearth knows");
    if (!limitRequests(bridge)) this.log.warn("HomeKit requests have no size limit: hap-nodejs's internals are not the ones hearth knows");
    this.log.info(
      { pincode: this.setupInfo.pincode, accessories: this.mapped.size, port: this.port },
      'HomeKit bridge "%s" ready with %s accessories: pair it in Apple Home with the code %s',
      this.config.name,
      String(this.mapped.size),
      this.setupInfo.pincode,
    );
  }

  async stop(): Promise<void> {
    const bridge = this.bridge;
    this.bridge = undefined;
    this.mapped.clear();
    if (bridge !== undefined) await bridge.unpublish().catch(() => {});
  }

  private async loadSetup(dir: string): Promise<HomekitSetup> {
    return readOrCreate(join(dir, SETUP_FILE), {
      log: this.log,
      parse: jsonOf(isSetup, '{"pincode", "username", "setupId"}'),
      label: 'HomeKit setup file',
      fallback: 'a new bridge id: pair again',
      make: newSetup,
    });
  }

  /** Bridges an entity when the filter selects it and HomeKit has a type for it. */
  private consider(entityId: string): void {
    const bridge = this.bridge;
    const hap = this.hap;
    if (bridge === undefined || hap === undefined || this.mapped.has(entityId)) return;
    if (this.mapped.size >= MAX_BRIDGED) return;
    const entry = this.ctx.registries.entities.entry(entityId);
    if (entry?.hidden_by != null || entry?.entity_category != null) {
      if (!this.config.filter.include.entities.includes(entityId)) return;
    }
    // The entity's area, else its device's, as Home Assistant reads an entity's area.
    const deviceId = this.ctx.core.entities.get(entityId)?.deviceId;
    const deviceArea = deviceId === undefined ? undefined : this.ctx.core.devices.get(deviceId)?.area_id;
    if (!this.selects(entityId, { areaId: entry?.area_id ?? deviceArea ?? null, labels: entry?.labels ?? [] })) return;
    const state = this.ctx.core.states.get(entityId);
    if (state === undefined) return;
    const uniqueId = this.ctx.core.entities.find(entityId)?.uniqueId;
    const uuid = hap.uuid.generate(`hearth:${uniqueId ?? entityId}`);
    const name =
      this.config.names.get(entityId) ?? (typeof state.attributes.friendly_name === 'string' ? state.attributes.friendly_name : entityId);
    const link = {
      entityId,
      state: (): State | undefined => this.ctx.core.states.get(entityId),
      call: (domain: string, service: string, data: JsonObject = {}) => {
        Promise.resolve(
          this.ctx.core.services.call(domain, service, { entity_id: entityId, ...data }, { context: this.ctx.core.newContext() }),
        ).catch((err: unknown) =>
          this.log.warn({ entity_id: entityId, err: (err as Error).message }, 'HomeKit could not %s.%s %s', domain, service, entityId),
        );
      },
    };
    const mapped = accessoryFor(hap, link, uuid, name.slice(0, 64), state);
    if (mapped === undefined) return;
    this.mapped.set(entityId, mapped);
    bridge.addBridgedAccessory(mapped.accessory);
  }
}
