import type { Definition, Tz } from 'zigbee-herdsman-converters';
import type { DeviceState } from './built-entity.js';
import type { ZigbeeDevice } from './types.js';

type ZigbeeEndpoint = ZigbeeDevice['endpoints'][number];

export interface SendContext {
  readonly definition: Definition;
  readonly device: ZigbeeDevice;
  readonly options: DeviceState;
  readonly state: DeviceState;
  /** meta.publish: converters that learn a state on their own (e.g. after a read) hand it over here. */
  readonly publish: (payload: DeviceState) => void;
  readonly exposesChanged: () => void;
}

export interface SendOutcome {
  /** What the converters say the device now is (their returned `state`), keys suffixed with the endpoint name. */
  readonly state: DeviceState;
  /** The first key that failed and why; the keys after it were not sent. */
  readonly failure?: { readonly key: string; readonly error: unknown };
  /** Keys no converter takes, skipped (logged by the caller). */
  readonly unsupported?: readonly string[];
}

/** zigbee2mqtt's Device.endpoint(): a named endpoint through the definition's map, the first one by default. */
export function endpointFor(definition: Definition, device: ZigbeeDevice, name: string | undefined): ZigbeeEndpoint | undefined {
  const key = name ?? 'default';
  if (name !== undefined && !Number.isNaN(Number(name))) return device.getEndpoint(Number(name));
  const id = definition.endpoint?.(device)[key];
  if (id !== undefined) return device.getEndpoint(id);
  return key === 'default' ? device.endpoints[0] : undefined;
}

const STATE_FIRST = new Set(['state', 'brightness', 'brightness_percent']);

/** publish.ts's order: turning on, state and brightness go first (colour follows once the bulb is on); turning off, last. */
function ordered(message: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(message);
  const off = typeof message.state === 'string' && message.state.toLowerCase() === 'off';
  const first = entries.filter(([k]) => STATE_FIRST.has(k) !== off);
  const rest = entries.filter(([k]) => STATE_FIRST.has(k) === off);
  return [...first, ...rest];
}

/**
 * Sends a message (property to value) through the definition's toZigbee converters, as zigbee2mqtt's publish.ts:
 * the first converter whose keys (and endpoints) match each key, each converter used once per message, with
 * meta.message holding the whole message. Stops at the first failure.
 */
export async function convertToZigbee(
  ctx: SendContext,
  message: Record<string, unknown>,
  endpointName: string | undefined,
): Promise<SendOutcome> {
  const target = endpointFor(ctx.definition, ctx.device, endpointName);
  if (target === undefined)
    return { state: {}, failure: { key: Object.keys(message)[0] ?? '', error: new Error(`no endpoint ${endpointName ?? 'default'}`) } };
  const used = new Set<Tz.Converter>();
  const state: DeviceState = {};
  const unsupported: string[] = [];
  for (const [key, value] of ordered(message)) {
    const converter = ctx.definition.toZigbee.find(
      (c) => (!c.key || c.key.includes(key)) && (!c.endpoints || (endpointName !== undefined && c.endpoints.includes(endpointName))),
    );
    if (converter === undefined || converter.convertSet === undefined) {
      // As publish.ts: a key the device cannot take is skipped; a message with nothing it can take fails.
      unsupported.push(key);
      continue;
    }
    if (used.has(converter)) continue;
    used.add(converter);
    const meta: Tz.Meta = {
      endpoint_name: endpointName,
      options: ctx.options,
      message: { ...message },
      device: ctx.device,
      state: ctx.state,
      mapped: ctx.definition,
      publish: (payload) => ctx.publish(payload as DeviceState),
      deviceExposesChanged: ctx.exposesChanged,
    };
    try {
      const result = await converter.convertSet(target, key, value, meta);
      if (result?.state) {
        for (const [k, v] of Object.entries(result.state)) state[endpointName ? `${k}_${endpointName}` : k] = v;
      }
    } catch (error) {
      return { state, failure: { key, error } };
    }
  }
  if (used.size === 0 && unsupported.length > 0) {
    return { state, failure: { key: unsupported.join(', '), error: new Error(`${ctx.definition.model} has no converter for it`) } };
  }
  return { state, unsupported };
}
