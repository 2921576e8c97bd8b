import { HubError } from '../../src/core/errors.js';
import type { JsonObject } from '../../src/core/json.js';
import type { ServiceCall } from '../../src/core/services.js';
import type { ZigbeeHost } from './host.js';
import { coordinatorEndpoint } from './runtime.js';
import type { ZigbeeDevice } from './types.js';

/**
 * `zigbee/configure_reporting` (zigbee2mqtt's bridge/request/device/configure_reporting): the cluster bound to the
 * coordinator, then the device asked to report the attribute between the two intervals (and on a change of at least
 * `reportable_change`). Answers what the device took, or the device's refusal (UNSUPPORTED_ATTRIBUTE, a timeout).
 */

const MAX_INTERVAL = 0xffff;

export const REPORTING_FIELDS = {
  ieee: {
    kind: 'text',
    name: 'Device',
    description: 'The IEEE address (or friendly name) of a paired device.',
    required: true,
    maxLength: 200,
  },
  endpoint: { kind: 'number', name: 'Endpoint', integer: true, min: 1, max: 240, required: true },
  cluster: {
    kind: 'text',
    name: 'Cluster',
    description: 'A cluster name (msTemperatureMeasurement) or number.',
    required: true,
    maxLength: 100,
  },
  attribute: {
    kind: 'text',
    name: 'Attribute',
    description: 'An attribute name (measuredValue) or number.',
    required: true,
    maxLength: 100,
  },
  minimum_report_interval: {
    kind: 'number',
    name: 'Minimum interval',
    integer: true,
    min: 0,
    max: MAX_INTERVAL,
    unit: 's',
    required: true,
  },
  maximum_report_interval: {
    kind: 'number',
    name: 'Maximum interval',
    integer: true,
    min: 0,
    max: MAX_INTERVAL,
    unit: 's',
    required: true,
    description: '0: no periodic reports; 65535: stop reporting.',
  },
  reportable_change: { kind: 'number', name: 'Reportable change', description: 'The change that makes a report (analog attributes).' },
} as const;

/** A cluster or attribute given as its number ("1026", "0x0402") or name. */
function key(value: string): string | number {
  const t = value.trim();
  if (/^(0x[0-9a-f]+|\d+)$/i.test(t)) return Number(t);
  return t;
}

export async function configureReporting(driver: ZigbeeHost, call: ServiceCall, find: (ref: string) => ZigbeeDevice): Promise<JsonObject> {
  const d = call.data;
  const device = find(String(d.ieee));
  const name = driver.devices.nameOf(device.ieeeAddr);
  const endpointId = Number(d.endpoint);
  const endpoint = device.getEndpoint(endpointId);
  if (endpoint === undefined)
    throw new HubError(
      'service_validation',
      `Device '${name}' does not have endpoint '${endpointId}': it has ${device.endpoints.map((e) => e.ID).join(', ') || 'none'}`,
    );
  const min = Number(d.minimum_report_interval);
  const max = Number(d.maximum_report_interval);
  if (max !== 0 && max !== MAX_INTERVAL && max < min)
    throw new HubError(
      'service_validation',
      `maximum_report_interval (${max}) must not be below minimum_report_interval (${min}), unless 0 or 65535`,
    );
  const change = typeof d.reportable_change === 'number' ? d.reportable_change : undefined;
  const { Zcl } = await import('zigbee-herdsman');
  const clusterKey = key(String(d.cluster));
  let cluster: ReturnType<typeof Zcl.Utils.getCluster>;
  try {
    cluster = Zcl.Utils.getCluster(clusterKey, device.manufacturerID, device.customClusters);
  } catch {
    throw new HubError(
      'service_validation',
      `cluster ${JSON.stringify(d.cluster)} is not a Zigbee cluster name or number (e.g. msTemperatureMeasurement, 1026)`,
    );
  }
  const attributeKey = key(String(d.attribute));
  const attribute = Zcl.Utils.getClusterAttribute(cluster, attributeKey, device.manufacturerID);
  if (attribute === undefined)
    throw new HubError(
      'service_validation',
      `attribute ${JSON.stringify(d.attribute)} is not one of cluster ${cluster.name}'s: ${Object.keys(cluster.attributes).slice(0, 30).join(', ')}`,
    );
  const coordinator = await coordinatorEndpoint();
  try {
    if (coordinator !== undefined) await endpoint.bind(cluster.name, coordinator);
    await endpoint.configureReporting(cluster.name, [
      {
        attribute: { ID: attribute.ID, type: attribute.type },
        minimumReportInterval: min,
        maximumReportInterval: max,
        reportableChange: change as number,
      },
    ]);
  } catch (err) {
    throw new HubError(
      'hub_error',
      `configuring reporting of ${cluster.name}.${attribute.name} on ${name} (endpoint ${endpointId}) failed: ${err instanceof Error ? err.message : String(err)} (a battery device may need a button press to wake up)`,
    );
  }
  driver.ctx.log.info(`Zigbee: configured reporting of ${cluster.name}.${attribute.name} on ${name} (endpoint ${endpointId})`);
  return {
    ieee: device.ieeeAddr,
    endpoint: endpointId,
    cluster: cluster.name,
    attribute: attribute.name,
    minimum_report_interval: min,
    maximum_report_interval: max,
    reportable_change: change ?? null,
  };
}
