import type { Definition } from 'zigbee-herdsman-converters';
import type { Fz } from 'zigbee-herdsman-converters/lib/types';
import type { Logger } from '../../src/core/log.js';
import type { DeviceState } from './built-entity.js';
import type { ZigbeeMessage } from './types.js';

/** What this file needs of zigbee-herdsman-converters (loaded lazily by device-entities.ts). */
export interface FromZigbeeRuntime {
  postProcessConvertedFromZigbeeMessage(
    definition: Definition,
    payload: DeviceState,
    options: DeviceState,
    device: ZigbeeMessage['device'],
  ): void;
}

export interface ConvertContext {
  readonly zhc: FromZigbeeRuntime;
  readonly definition: Definition;
  readonly options: DeviceState;
  /** The device's state, which converters read (e.g. to count clicks) through meta.state. */
  readonly state: DeviceState;
  /** For converters that publish later (debounced clicks, timers), as zigbee2mqtt's receive.ts passes. */
  readonly publishLater: (payload: DeviceState) => void;
  /** A converter learned that the device's exposes changed (e.g. a Tuya device told its type). */
  readonly exposesChanged: () => void;
  readonly log: Logger;
  /** Converter failures at debug level rather than error (values replayed from herdsman's cache). */
  readonly quiet?: boolean;
}

/** zigbee2mqtt's receive.ts ignores these clusters when no converter takes them (OTA, time, basic, poll control). */
const IGNORED_CLUSTERS: ReadonlySet<string | number> = new Set(['genOta', 'genTime', 'genBasic', 'genPollCtrl']);

function matches(c: Fz.Converter<string | number>, message: ZigbeeMessage): boolean {
  const type = Array.isArray(c.type) ? c.type.includes(message.type) : c.type === message.type;
  return c.cluster === message.cluster && type;
}

/**
 * Runs the definition's fromZigbee converters whose cluster and type match the message, merges what they return,
 * and post-processes it (precision and calibration options), as zigbee2mqtt's receive.ts does. Returns the
 * converted payload, empty when no converter had anything to say.
 */
export async function convertFromZigbee(ctx: ConvertContext, message: ZigbeeMessage): Promise<DeviceState> {
  const converters = (ctx.definition.fromZigbee as Fz.Converter<string | number>[]).filter((c) => matches(c, message));
  if (converters.length === 0) {
    if (!IGNORED_CLUSTERS.has(message.cluster)) {
      ctx.log.debug(
        { cluster: message.cluster, type: message.type },
        `no converter for ${ctx.definition.model} ${String(message.cluster)} ${message.type}`,
      );
    }
    return {};
  }
  const meta: Fz.Meta = { state: ctx.state, device: message.device, deviceExposesChanged: ctx.exposesChanged };
  const publish = (payload: DeviceState): void => {
    ctx.zhc.postProcessConvertedFromZigbeeMessage(ctx.definition, payload, ctx.options, message.device);
    ctx.publishLater(payload);
  };
  let payload: DeviceState = {};
  for (const converter of converters) {
    try {
      const converted = await converter.convert(
        ctx.definition,
        message as unknown as Fz.Message<string | number>,
        publish,
        ctx.options,
        meta,
      );
      if (converted) payload = { ...payload, ...(converted as DeviceState) };
    } catch (err) {
      const log = ctx.quiet ? ctx.log.debug.bind(ctx.log) : ctx.log.error.bind(ctx.log);
      log(
        { err, cluster: message.cluster, type: message.type },
        `fromZigbee converter for ${ctx.definition.model} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (Object.keys(payload).length > 0) ctx.zhc.postProcessConvertedFromZigbeeMessage(ctx.definition, payload, ctx.options, message.device);
  return payload;
}

/**
 * What herdsman keeps of a device's last reports (its endpoints' attribute cache, in its database across restarts)
 * as read responses, for the converters to turn into the state the device had. genBasic is left out: vendors
 * put blobs there that only a live report explains (zigbee2mqtt skips the cluster too).
 */
export function cachedMessages(device: ZigbeeMessage['device']): ZigbeeMessage[] {
  const out: ZigbeeMessage[] = [];
  for (const endpoint of device.endpoints) {
    for (const [cluster, cached] of Object.entries(endpoint.clusters)) {
      const data = cached.attributes;
      if (cluster === 'genBasic' || data === undefined || Object.keys(data).length === 0) continue;
      out.push({
        type: 'readResponse',
        device,
        endpoint,
        linkquality: Number.NaN,
        groupID: 0,
        cluster,
        data: { ...data },
        meta: { rawData: Buffer.alloc(0) },
      });
    }
  }
  return out;
}
