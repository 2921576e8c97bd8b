import { ChangeCollectors } from './change-collectors.js';
import type { Clock, Micros } from './clock.js';
import { type Context, createContext } from './context.js';
import type { Entities, Entity } from './entities.js';
import { UNAVAILABLE } from './entities.js';
import { HubError } from './errors.js';
import type { EventBus, HubEvent } from './event-bus.js';
import { describeField, type ServiceSchema, TARGET_KEYS, type ValidData, validateServiceData } from './fields.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import type { State } from './state.js';
import { hasTargetKeys, mergeTarget, parseTarget, type TargetExpander, type TargetSelector } from './targets.js';

/** The owner key of the registry's own bus listener. */
const SERVICES_OWNER = 'services';

export type ResponseSupport = 'none' | 'optional' | 'only';

export interface ServiceCall {
  readonly domain: string;
  readonly service: string;
  /** Validated, coerced service data without the target keys. */
  readonly data: ValidData;
  readonly target: TargetSelector;
  readonly context: Context;
  readonly returnResponse: boolean;
  /** For services that call other services with the same context (homeassistant.turn_on, scripts). */
  readonly services: ServiceRegistry;
}

export interface ServiceDefinition {
  readonly domain: string;
  readonly service: string;
  readonly name?: string;
  readonly description?: string;
  readonly schema: ServiceSchema;
  readonly response?: ResponseSupport;
  /**
   * An entity service: called once for each available entity of `domain` that the call targets,
   * with the call's context set on the entity. What it returns is that entity's response.
   */
  readonly entity?: (entity: Entity, data: ValidData, call: ServiceCall) => unknown;
  /** A plain service, called once. */
  readonly handler?: (call: ServiceCall) => unknown;
}

export interface CallOptions {
  readonly context?: Context;
  readonly userId?: string | null;
  readonly target?: JsonObject;
  readonly returnResponse?: boolean;
  /** Collect the states this call's context changed (REST answers with them). */
  readonly collectChanges?: boolean;
}

export interface CallResult {
  readonly context: Context;
  readonly response: JsonValue | null;
  readonly changed: State[];
}

export interface ServiceLogger {
  warn(obj: object, msg: string, ...values: unknown[]): void;
}

const EMPTY_DATA: JsonObject = Object.freeze({});

interface Registered {
  readonly owner: string;
  readonly def: ServiceDefinition;
}

/**
 * Every `domain.service` the hub offers, with the schema that validates calls and renders the catalogue.
 * Entity services resolve their target to entities of their own domain and act through each entity's
 * platform.
 */
export class ServiceRegistry {
  private readonly services = new Map<string, Map<string, Registered>>();
  /** The last name get() found, as it was asked for (see get). */
  private lastFound: { readonly domain: string; readonly service: string; readonly def: ServiceDefinition } | undefined;
  private catalogueJsonText: string | undefined;
  private expander: TargetExpander = () => [];
  /**
   * The calls collecting the states they change (REST answers with them), by context id: one bus listener
   * for all of them instead of one registered and removed per call.
   */
  private readonly collectors = new ChangeCollectors();

  constructor(
    private readonly bus: EventBus,
    private readonly entities: Entities,
    private readonly clock: Clock,
    private readonly log: ServiceLogger,
  ) {
    bus.on(SERVICES_OWNER, 'state_changed', (event: HubEvent<'state_changed'>) => {
      if (this.collectors.size === 0 || event.data.new_state === null) return;
      this.collectors.collect(event.context.id, event.data.new_state);
    });
  }

  setTargetExpander(expander: TargetExpander): void {
    this.expander = expander;
  }

  register(owner: string, def: ServiceDefinition): void {
    if ((def.entity === undefined) === (def.handler === undefined)) {
      throw new Error(`${def.domain}.${def.service}: give exactly one of entity and handler`);
    }
    let domain = this.services.get(def.domain);
    if (domain === undefined) {
      domain = new Map();
      this.services.set(def.domain, domain);
    }
    domain.set(def.service, { owner, def });
    this.catalogueJsonText = undefined;
    this.lastFound = undefined;
    this.bus.fire('service_registered', { domain: def.domain, service: def.service }, createContext(this.clock.now()));
  }

  remove(domain: string, service: string): boolean {
    const d = this.services.get(domain);
    if (d === undefined || !d.delete(service)) return false;
    if (d.size === 0) this.services.delete(domain);
    this.catalogueJsonText = undefined;
    this.lastFound = undefined;
    this.bus.fire('service_removed', { domain, service }, createContext(this.clock.now()));
    return true;
  }

  removeOwner(owner: string): void {
    for (const [domain, d] of [...this.services]) {
      for (const [service, reg] of [...d]) if (reg.owner === owner) this.remove(domain, service);
    }
  }

  get(domain: string, service: string): ServiceDefinition | undefined {
    // A dashboard calls the same service again and again, and REST's names come as new strings each time:
    // comparing a few characters costs less than hashing them for two maps. Forgotten on any change.
    const last = this.lastFound;
    if (last !== undefined && domain === last.domain && service === last.service) return last.def;
    // Names are registered in lower case and nearly always asked for so: the exact name first, no case mapping.
    const d = this.services.get(domain) ?? this.services.get(domain.toLowerCase());
    const def = (d?.get(service) ?? d?.get(service.toLowerCase()))?.def;
    if (def !== undefined) this.lastFound = { domain, service, def };
    return def;
  }

  has(domain: string, service: string): boolean {
    return this.get(domain, service) !== undefined;
  }

  domains(): string[] {
    return [...this.services.keys()];
  }

  /** `{domain: {service: {name, description, fields, target?, response?}}}`, as WS `get_services` returns it. */
  catalogue(): Record<string, Record<string, JsonObject>> {
    const out: Record<string, Record<string, JsonObject>> = {};
    for (const [domain, d] of this.services) {
      const services: Record<string, JsonObject> = {};
      for (const [name, { def }] of d) {
        const fields: Record<string, JsonValue> = {};
        for (const [key, spec] of Object.entries(def.schema.fields)) fields[key] = describeField(spec);
        const desc: Record<string, JsonValue> = { name: def.name ?? '', description: def.description ?? '', fields };
        if (def.entity !== undefined) desc.target = { entity: [{ domain: [def.domain] }] };
        if (def.response !== undefined && def.response !== 'none') desc.response = { optional: def.response === 'optional' };
        services[name] = desc;
      }
      out[domain] = services;
    }
    return out;
  }

  /** The catalogue's JSON, rebuilt only when a service is registered or removed. */
  catalogueJson(): string {
    if (this.catalogueJsonText === undefined) this.catalogueJsonText = JSON.stringify(this.catalogue());
    return this.catalogueJsonText;
  }

  async call(domain: string, service: string, rawData: JsonValue | undefined, options: CallOptions = {}): Promise<CallResult> {
    return this.callNow(domain, service, rawData, options);
  }

  /**
   * `call` without a promise when the service acts synchronously, as most platforms do: the result, or a
   * promise of it when a handler or platform answers later. What `call` rejects with, this throws.
   */
  callNow(domain: string, service: string, rawData: JsonValue | undefined, options: CallOptions = {}): CallResult | Promise<CallResult> {
    const def = this.get(domain, service);
    if (def === undefined) throw new HubError('service_not_found', `Service ${domain}.${service} not found.`);
    return this.callDefinition(def, rawData, options);
  }

  /** callNow of a service the caller has already looked up (`get`), as REST does before it checks the body. */
  callDefinition(def: ServiceDefinition, rawData: JsonValue | undefined, options: CallOptions = {}): CallResult | Promise<CallResult> {
    const response = def.response ?? 'none';
    const returnResponse = options.returnResponse === true;
    if (returnResponse && response === 'none') {
      throw new HubError(
        'service_validation',
        "Validation error: An action which does not return responses can't be called with return_response=True",
      );
    }
    if (!returnResponse && response === 'only') {
      throw new HubError(
        'service_validation',
        'Validation error: The action requires responses and must be called with return_response=True',
      );
    }
    if (rawData !== undefined && rawData !== null && !isJsonObject(rawData)) {
      throw new HubError('invalid_service_data', 'expected a dictionary for service data');
    }
    const merged = mergeTarget(rawData ?? EMPTY_DATA, options.target);
    const isEntityService = def.entity !== undefined;
    const data = validateServiceData(def.schema, merged, isEntityService);
    const target = parseTarget(merged);
    if (isEntityService && !def.schema.allowExtra && !hasTargetKeys(target)) {
      throw new HubError('invalid_service_data', `must contain at least one of ${TARGET_KEYS.join(', ')}.`);
    }
    // One clock reading for the call: its context, its call_service event, its entities' recent context.
    const now = this.clock.now();
    const context = options.context ?? createContext(now, options.userId ?? null);
    const call: ServiceCall = { domain: def.domain, service: def.service, data, target, context, returnResponse, services: this };

    const changed: State[] = [];
    let stopCollecting: (() => void) | undefined;
    if (options.collectChanges) {
      if (!this.collectors.add(context.id, changed)) {
        // Two calls under one context at once (an automation's): the second gets a listener of its own.
        stopCollecting = this.bus.on(`service-call:${context.id}`, 'state_changed', (event: HubEvent<'state_changed'>) => {
          if (event.context.id === context.id && event.data.new_state !== null) changed.push(event.data.new_state);
        });
      }
    }
    this.bus.fire('call_service', { domain: def.domain, service: def.service, service_data: data }, context, 'LOCAL', now);
    let outcome: unknown;
    try {
      if (def.entity !== undefined) outcome = this.callEntities(def, def.entity, call, now);
      else outcome = (def.handler as (call: ServiceCall) => unknown)(call);
    } catch (err) {
      this.endCollecting(context, changed, stopCollecting);
      throw err;
    }
    if (isPromiseLike(outcome)) return this.finishCall(outcome, context, returnResponse, changed, stopCollecting);
    this.endCollecting(context, changed, stopCollecting);
    return { context, response: returnResponse ? toJsonValue(outcome) : null, changed };
  }

  private endCollecting(context: Context, changed: State[], stop: (() => void) | undefined): void {
    if (stop !== undefined) stop();
    else this.collectors.remove(context.id, changed);
  }

  /** The rest of a call whose service answers later: the result once it has, collecting changes until then. */
  private async finishCall(
    outcome: PromiseLike<unknown>,
    context: Context,
    returnResponse: boolean,
    changed: State[],
    stopCollecting: (() => void) | undefined,
  ): Promise<CallResult> {
    try {
      const result = await outcome;
      return { context, response: returnResponse ? toJsonValue(result) : null, changed };
    } finally {
      this.endCollecting(context, changed, stopCollecting);
    }
  }

  /** The entities of the service's domain that a call's target names, skipping missing and unavailable ones. */
  resolveEntities(domain: string, target: TargetSelector): Entity[] {
    const ids = target.entity_id;
    const expands = Boolean(target.device_id || target.area_id || target.floor_id || target.label_id);
    // The usual call names one entity and nothing else: no set of seen ids needed.
    const only = ids?.length === 1 && !expands ? (ids[0] as string) : undefined;
    if (only !== undefined && only !== 'all' && only !== 'none') {
      const entity = this.named(domain, only);
      if (entity === undefined) {
        this.warnMissing([only]);
        return [];
      }
      if (entity.state !== UNAVAILABLE) return [entity];
      const refusal = entity.unavailableRefusal;
      if (refusal !== undefined) throw new HubError('hub_error', refusal);
      return [];
    }
    const out: Entity[] = [];
    const seen = new Set<string>();
    const missing: string[] = [];
    const add = (id: string, explicit: boolean): void => {
      if (seen.has(id)) return;
      seen.add(id);
      const entity = this.named(domain, id);
      if (entity === undefined) {
        if (explicit) missing.push(id);
        return;
      }
      if (entity.state !== UNAVAILABLE) out.push(entity);
    };
    for (const id of ids ?? []) {
      if (id === 'all') {
        for (const e of this.entities.ofDomain(domain)) add(e.id, false);
      } else if (id !== 'none') add(id, true);
    }
    if (expands) {
      for (const id of this.expander(target)) add(id, false);
    }
    if (missing.length > 0) this.warnMissing(missing);
    return out;
  }

  /** The entity of the service's domain with this id; another domain's counts as missing (Home Assistant's log_missing). */
  private named(domain: string, id: string): Entity | undefined {
    const entity = this.entities.get(id);
    return entity?.domain === domain ? entity : undefined;
  }

  private warnMissing(ids: readonly string[]): void {
    this.log.warn({ entity_id: ids }, 'Referenced entities %s are missing or not currently available', ids);
  }

  /** What each targeted entity answered (by entity id), or a promise of it when a platform answers later. */
  private callEntities(
    def: ServiceDefinition,
    handler: NonNullable<ServiceDefinition['entity']>,
    call: ServiceCall,
    now: Micros,
  ): Record<string, JsonValue> | Promise<Record<string, JsonValue>> {
    const entities = this.resolveEntities(def.domain, call.target);
    if (call.returnResponse && entities.length === 0) {
      throw new HubError('hub_error', 'Service call requested response data but did not match any entities');
    }
    const responses: Record<string, JsonValue> = {};
    // Entities act concurrently, as Home Assistant gathers them; one failing entity fails the call. Most
    // platforms act synchronously: their results are taken at once, and only real promises are awaited.
    let pending: Promise<void>[] | undefined;
    let failed = false;
    let firstError: unknown;
    for (const entity of entities) {
      entity.useContext(call.context, now);
      let r: unknown;
      try {
        r = handler(entity, call.data, call);
      } catch (err) {
        if (!failed) {
          failed = true;
          firstError = err;
        }
        continue;
      }
      if (isPromiseLike(r)) {
        pending ??= [];
        pending.push(
          Promise.resolve(r).then((value) => {
            if (call.returnResponse) responses[entity.id] = toJsonValue(value) ?? {};
          }),
        );
      } else if (call.returnResponse) responses[entity.id] = toJsonValue(r) ?? {};
    }
    if (failed) {
      // As Promise.all would: the others keep going, their failures are not reported.
      for (const p of pending ?? []) p.catch(() => undefined);
      throw firstError;
    }
    if (pending !== undefined) return Promise.all(pending).then(() => responses);
    return responses;
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function toJsonValue(value: unknown): JsonValue | null {
  if (value === undefined) return null;
  return value as JsonValue;
}
