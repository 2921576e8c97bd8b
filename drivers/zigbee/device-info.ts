import type { Controller } from 'zigbee-herdsman';
import { isoFromMicros } from '../../src/core/clock.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { ZigbeeHost } from './host.js';
import type { ZigbeeDevice } from './types.js';

/**
 * `zigbee.device_info` (and the WebSocket command `zigbee/device/info`): what the per-device page shows of one
 * paired device. Read-only: identity and firmware from its basic cluster, interview and power source, its entities
 * (the page follows their states over `subscribe_entities`), and per endpoint its clusters, bindings and the
 * reporting herdsman has configured.
 */

type ZigbeeEndpoint = ZigbeeDevice['endpoints'][number];

const clusterNames = (clusters: readonly { name: string }[]): string[] => clusters.map((c) => c.name);

function bindingsOf(endpoint: ZigbeeEndpoint): JsonValue[] {
  return endpoint.binds.map(
    (b): JsonObject =>
      'groupID' in b.target
        ? { cluster: b.cluster.name, target_type: 'group', group_id: b.target.groupID }
        : { cluster: b.cluster.name, target_type: 'endpoint', target: b.target.deviceIeeeAddress, target_endpoint: b.target.ID },
  );
}

function reportingOf(endpoint: ZigbeeEndpoint): JsonValue[] {
  return endpoint.configuredReportings.map((r) => ({
    cluster: r.cluster.name,
    attribute: r.attribute.name,
    minimum_report_interval: r.minimumReportInterval,
    maximum_report_interval: r.maximumReportInterval,
    reportable_change: r.reportableChange,
  }));
}

function endpointsOf(device: ZigbeeDevice): JsonValue[] {
  return device.endpoints.map((e) => ({
    id: e.ID,
    profile_id: e.profileID ?? null,
    device_id: e.deviceID ?? null,
    input_clusters: clusterNames(e.getInputClusters()),
    output_clusters: clusterNames(e.getOutputClusters()),
    bindings: bindingsOf(e),
    reporting: reportingOf(e),
  }));
}

/** The device's entities, by the registry entry its entities name as their device. */
function entitiesOf(driver: ZigbeeHost, ieee: string): JsonValue[] {
  const { core } = driver.ctx;
  const entry = core.devices.byIdentifierOf(['zigbee', ieee]);
  if (entry === undefined) return [];
  const out: JsonValue[] = [];
  for (const entity of core.entities.all()) if (entity.deviceId === entry.id) out.push({ entity_id: entity.id, domain: entity.domain });
  out.sort((a, b) => String((a as JsonObject).entity_id).localeCompare(String((b as JsonObject).entity_id)));
  return out;
}

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export function deviceInfo(driver: ZigbeeHost, controller: Controller, device: ZigbeeDevice): JsonObject {
  const ieee = device.ieeeAddr;
  const entities = driver.devices.get(ieee);
  const lastSeen = driver.availability.lastSeen(ieee);
  const coordinator = controller.getDevicesByType('Coordinator')[0];
  return {
    ieee_address: ieee,
    friendly_name: driver.devices.nameOf(ieee),
    network_address: device.networkAddress,
    type: device.type,
    model: orNull(entities?.model),
    vendor: orNull(entities?.vendor),
    description: orNull(entities?.description),
    supported: entities?.supported ?? false,
    model_id: orNull(device.modelID),
    manufacturer: orNull(device.manufacturerName),
    power_source: orNull(device.powerSource),
    link_quality: orNull(device.linkquality),
    last_seen: lastSeen === undefined ? null : isoFromMicros(lastSeen),
    available: driver.availability.isAvailable(ieee),
    interview: device.interviewState.toLowerCase(),
    configurable: entities?.configurable ?? false,
    ota: entities?.checkOta !== undefined,
    firmware: {
      software_build_id: orNull(device.softwareBuildID?.trim() || undefined),
      date_code: orNull(device.dateCode?.trim() || undefined),
      hardware_version: orNull(device.hardwareVersion),
      zcl_version: orNull(device.zclVersion),
      application_version: orNull(device.applicationVersion),
      stack_version: orNull(device.stackVersion),
    },
    coordinator: coordinator?.ieeeAddr ?? null,
    entities: entitiesOf(driver, ieee),
    endpoints: endpointsOf(device),
  };
}
