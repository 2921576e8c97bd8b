// The Matter bridge on matter.js (Matterbridge's library): a ServerNode with an aggregator holding one bridged
// endpoint per selected entity, its fabrics and endpoint numbers kept under <data>/matter so a restart keeps the
// commissioning, and state both ways: a hub change sets the attributes in the same turn; a controller's change calls
// the entity's service.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type EntitySelector, entityFilter } from '../config/entity-filter.js';
import type { Component } from '../core/component.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { State } from '../core/state.js';
import type { IntegrationContext } from '../integration/integration.js';
import { qrSvg } from '../util/qr.js';
import { HUB_VERSION } from '../version.js';
import type { MatterConfig } from './config.js';
import { kindFor } from './devices.js';
import { type DeviceKind, type EntityLink, typeWith } from './kind.js';
import { loadMatter, type MatterEndpoint, type MatterLib, type MatterServerNode, type Patch } from './lib.js';
import { loadSetup, type MatterSetup } from './setup.js';

/** Matter's test vendor id (0xFFF1) and a product id from its test range: what uncertified bridges announce. */
const VENDOR_ID = 0xfff1;
const PRODUCT_ID = 0x8000;
/** Bridged endpoints a bridge serves; Matterbridge and the controllers' apps cope with this many. */
export const MAX_BRIDGED = 200;
/** Running bridges in this process: matter.js's mDNS service is shared and closed with the last. */
let running = 0;
/**
 * How long a stopping bridge waits for its controllers to acknowledge the last reports (its shutdown event among
 * them) before it ends their sessions without them: one on the LAN answers in milliseconds; one that has gone (a
 * phone off the network) would hold the stop through matter.js's retransmissions and its wait after them, some 13 s,
 * past the hub's 3 s for each part, which then logs an error and exits with the bridge's storage still open.
 */
export const CLOSE_GRACE_MS = 1000;

interface Bridged {
  readonly endpoint: MatterEndpoint;
  readonly kind: DeviceKind;
  /** The state being written to the endpoint, if one is, and the newest to write once it is written. */
  writing?: State;
  next?: State;
  /** What the endpoint's bridgedDeviceBasicInformation.reachable was set to (only the bridge sets it); unknown after a failed write. */
  reachable: boolean | undefined;
  /** Writes `next` (queued at the end of the turn), and what follows a write: made once per endpoint. */
  readonly flush: () => void;
  readonly written: () => void;
  readonly failed: (err: unknown) => void;
}

function isEmpty(patch: Patch): boolean {
  for (const _ in patch) return false;
  return true;
}

/** `patch` without the attributes that already hold its values (and without clusters left empty). */
function changes(current: MatterEndpoint['state'], patch: Patch): Patch {
  for (const cluster in patch) {
    const values = patch[cluster];
    const now = current[cluster];
    if (values === undefined || now === undefined) continue;
    let left = false;
    for (const attribute in values) {
      if (Object.is(values[attribute], now[attribute])) delete values[attribute];
      else left = true;
    }
    if (!left) delete patch[cluster];
  }
  return patch;
}

export interface MatterPairing {
  /** The 11-digit manual pairing code the apps ask for. */
  readonly manualCode: string;
  /** The QR code's payload (`MT:...`). */
  readonly qrCode: string;
}

/** `text` cut to at most `bytes` bytes of UTF-8 on a character boundary (Matter's string limits are in bytes). */
export function utf8Prefix(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const ch of text) {
    used += Buffer.byteLength(ch);
    if (used > bytes) break;
    out += ch;
  }
  return out;
}

/** Endpoint ids: matter.js keeps each endpoint's number under its id; entity ids hold only [a-z0-9_.]. */
export function endpointId(entityId: string): string {
  return entityId.replace('.', '-');
}

export class MatterBridge implements Component {
  readonly name = 'matter';
  private server: MatterServerNode | undefined;
  private lib: MatterLib | undefined;
  private aggregator: MatterEndpoint | undefined;
  private readonly bridged = new Map<string, Bridged>();
  private readonly pending = new Set<string>();
  private setupInfo: MatterSetup | undefined;
  private codes: MatterPairing | undefined;
  private readonly selects: EntitySelector;
  private stopped = false;
  /** Whether the bridge has said it is full (once). */
  private full = false;

  constructor(
    private readonly ctx: IntegrationContext,
    private readonly config: MatterConfig,
    private readonly log: Logger,
  ) {
    this.selects = entityFilter(config.filter.include, config.filter.exclude);
  }

  /** The pairing codes, once started. */
  get pairing(): MatterPairing | undefined {
    return this.codes;
  }

  get passcode(): number | undefined {
    return this.setupInfo?.passcode;
  }

  get discriminator(): number | undefined {
    return this.setupInfo?.discriminator;
  }

  /** Whether a controller has commissioned the bridge (it keeps its fabrics across restarts). */
  get commissioned(): boolean {
    return this.server?.lifecycle.isCommissioned ?? false;
  }

  get endpointCount(): number {
    return this.bridged.size;
  }

  /** The endpoint number a bridged entity has, once added. */
  endpointNumber(entityId: string): number | undefined {
    return this.bridged.get(entityId)?.endpoint.number;
  }

  /** The commissioning QR code as SVG. */
  qrSvg(): Promise<string | undefined> {
    return this.codes === undefined ? Promise.resolve(undefined) : qrSvg(this.codes.qrCode, 'Matter pairing code');
  }

  async start(): Promise<void> {
    this.stopped = false;
    const dir = join(this.ctx.dataDir, 'matter');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const stored = await loadSetup(dir, this.log);
    this.setupInfo = {
      passcode: this.config.passcode ?? stored.passcode,
      discriminator: this.config.discriminator ?? stored.discriminator,
    };
    const lib = await loadMatter(this.log);
    this.lib = lib;
    const server = await lib.ServerNode.create({
      id: 'bridge',
      environment: lib.environment('hearth-matter', dir),
      network: { port: this.config.port },
      commissioning: { passcode: this.setupInfo.passcode, discriminator: this.setupInfo.discriminator },
      productDescription: { name: this.config.name, deviceType: lib.AggregatorEndpoint.deviceType },
      basicInformation: {
        vendorName: 'hearth',
        vendorId: lib.VendorId(VENDOR_ID),
        productName: 'hearth Matter Bridge',
        productLabel: this.config.name,
        productId: PRODUCT_ID,
        nodeLabel: this.config.name,
        hardwareVersion: 1,
        softwareVersion: 1,
        softwareVersionString: HUB_VERSION,
        serialNumber: `hearth-${this.setupInfo.discriminator}`,
        uniqueId: `hearth-bridge-${this.setupInfo.discriminator}`,
      },
    });
    running++;
    if (this.stopped) {
      // Stopped while matter.js was loading: nothing else will close this node.
      this.server = server;
      await this.stop();
      return;
    }
    this.server = server;
    const aggregator = new lib.Endpoint(lib.AggregatorEndpoint, { id: 'aggregator' });
    await server.add(aggregator);
    this.aggregator = aggregator;
    for (const entityId of this.ctx.core.states.entityIds()) await this.consider(entityId);
    this.ctx.core.bus.on(this.ctx.owner, 'state_changed', (event) => {
      const { entity_id: entityId, new_state: state } = event.data;
      const bridged = this.bridged.get(entityId);
      if (bridged !== undefined) {
        if (state === null) this.remove(entityId, bridged);
        else this.update(bridged, state);
      } else if (state !== null) void this.consider(entityId);
    });
    await server.start();
    const codes = (server.state.commissioning as { pairingCodes?: { manualPairingCode?: string; qrPairingCode?: string } })?.pairingCodes;
    if (codes?.manualPairingCode !== undefined && codes.qrPairingCode !== undefined)
      this.codes = { manualCode: codes.manualPairingCode, qrCode: codes.qrPairingCode };
    this.log.info(
      {
        manual_code: this.codes?.manualCode,
        qr_code: this.codes?.qrCode,
        endpoints: this.bridged.size,
        port: this.config.port,
        commissioned: this.commissioned,
      },
      this.commissioned
        ? 'Matter bridge "%s" ready with %s endpoints (commissioned)'
        : 'Matter bridge "%s" ready with %s endpoints: add it in Apple Home, Google Home or Alexa with the code %s',
      this.config.name,
      String(this.bridged.size),
      this.codes?.manualCode ?? '',
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const server = this.server;
    this.server = undefined;
    this.aggregator = undefined;
    this.bridged.clear();
    if (server === undefined) return;
    const drop = this.lib?.sessionDropper(server);
    const grace = setTimeout(() => void drop?.(), CLOSE_GRACE_MS);
    await server.close().catch((err: unknown) => this.log.warn({ err: (err as Error).message }, 'Matter bridge did not close cleanly'));
    clearTimeout(grace);
    running--;
    if (running === 0) await this.lib?.closeMdns().catch(() => {});
  }

  /**
   * Sets the endpoint's attributes from the hub's state at the end of the turn (microtask), so that changes made in
   * one turn are one write and one report; matter.js reports the changes to subscribers. One write per endpoint at a
   * time, then the newest state: matter.js may apply concurrent writes out of order.
   */
  private update(bridged: Bridged, state: State): void {
    const idle = bridged.writing === undefined && bridged.next === undefined;
    bridged.next = state;
    if (idle) queueMicrotask(bridged.flush);
  }

  /**
   * Writes the newest state, only the attributes whose values differ from the endpoint's: every behaviour in the
   * patch is a resource matter.js's transaction locks and checks, and a state change moves one or two attributes.
   */
  private write(entityId: string, bridged: Bridged): void {
    const state = bridged.next;
    if (state === undefined || this.bridged.get(entityId) !== bridged) return;
    bridged.next = undefined;
    const patch = changes(bridged.endpoint.state, bridged.kind.patch(state));
    const reachable = state.state !== 'unavailable';
    if (bridged.reachable !== reachable) {
      patch.bridgedDeviceBasicInformation = { reachable };
      bridged.reachable = reachable;
    }
    if (isEmpty(patch)) return;
    bridged.writing = state;
    bridged.endpoint.set(patch).then(bridged.written, bridged.failed);
  }

  private remove(entityId: string, bridged: Bridged): void {
    this.bridged.delete(entityId);
    bridged.endpoint.delete().catch((err: unknown) => {
      this.log.warn({ entity_id: entityId, err: (err as Error).message }, 'Matter could not remove %s', entityId);
    });
  }

  /** Bridges an entity when the filter selects it and Matter has a device type for it. */
  private async consider(entityId: string): Promise<void> {
    const lib = this.lib;
    const aggregator = this.aggregator;
    if (lib === undefined || aggregator === undefined || this.bridged.has(entityId) || this.pending.has(entityId)) return;
    const entry = this.ctx.registries.entities.entry(entityId);
    if (entry?.hidden_by != null || entry?.entity_category != null) {
      if (!this.config.filter.include.entities.includes(entityId)) return;
    }
    if (!this.selects(entityId, { areaId: entry?.area_id ?? null, labels: entry?.labels ?? [] })) return;
    const state = this.ctx.core.states.get(entityId);
    if (state === undefined) return;
    const kind = kindFor(lib, entityId, state);
    if (kind === undefined) return;
    if (this.bridged.size + this.pending.size >= MAX_BRIDGED) {
      if (!this.full) this.log.warn({ max: MAX_BRIDGED }, 'The Matter bridge is full: %s and later entities are not bridged', entityId);
      this.full = true;
      return;
    }
    const name = utf8Prefix(
      this.config.names.get(entityId) ?? (typeof state.attributes.friendly_name === 'string' ? state.attributes.friendly_name : entityId),
      32,
    );
    const type = typeWith(kind.type, lib.behaviors.BridgedDeviceBasicInformationServer);
    const endpoint = new lib.Endpoint(type, {
      id: endpointId(entityId),
      bridgedDeviceBasicInformation: {
        nodeLabel: name,
        productName: name,
        productLabel: entityId.slice(0, 64),
        // The entity id names the device in the controller's details; the unique id (which must differ) is stable.
        serialNumber: entityId.slice(0, 32),
        uniqueId: createHash('sha256').update(`hearth:${entityId}`).digest('hex').slice(0, 32),
        reachable: state.state !== 'unavailable',
      },
      ...kind.patch(state),
    });
    this.pending.add(entityId);
    try {
      await aggregator.add(endpoint);
    } catch (err) {
      this.log.warn({ entity_id: entityId, err: (err as Error).message }, 'Matter could not bridge %s', entityId);
      return;
    } finally {
      this.pending.delete(entityId);
    }
    if (this.stopped || this.aggregator !== aggregator) return;
    const bridged: Bridged = {
      endpoint,
      kind,
      reachable: state.state !== 'unavailable',
      flush: () => this.write(entityId, bridged),
      written: () => {
        bridged.writing = undefined;
        this.write(entityId, bridged);
      },
      failed: (err: unknown) => {
        this.log.warn({ entity_id: entityId, err: (err as Error).message }, 'Matter could not show the state of %s', entityId);
        bridged.reachable = undefined;
        bridged.written();
      },
    };
    this.bridged.set(entityId, bridged);
    kind.listen(endpoint, this.link(entityId));
    // The entity may have changed, or gone, while the endpoint was being added.
    const now = this.ctx.core.states.get(entityId);
    if (now === undefined) this.remove(entityId, bridged);
    else if (now !== state) this.update(bridged, now);
  }

  private link(entityId: string): EntityLink {
    return {
      entityId,
      // While the bridge writes a state, the endpoint's changes are that state's, not a controller's.
      state: () => this.bridged.get(entityId)?.writing ?? this.ctx.core.states.get(entityId),
      call: (domain: string, service: string, data: JsonObject = {}) => {
        Promise.resolve(
          this.ctx.core.services.call(domain, service, { entity_id: entityId, ...data }, { context: this.ctx.core.newContext() }),
        ).catch((err: unknown) =>
          this.log.warn({ entity_id: entityId, err: (err as Error).message }, 'Matter could not %s.%s %s', domain, service, entityId),
        );
      },
    };
  }
}
