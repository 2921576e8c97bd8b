import type { Controller } from 'zigbee-herdsman';
import { HubError } from '../../src/core/errors.js';
import type { JsonObject } from '../../src/core/json.js';
import type { ServiceCall } from '../../src/core/services.js';
import type { ZigbeeHost } from './host.js';
import type { ZigbeeDevice } from './types.js';

/**
 * `zigbee.bind` / `zigbee.unbind`: a device's clusters bound to another device (a remote straight to a bulb, so it
 * works without the hub) or to the coordinator, as zigbee2mqtt's bind extension does with `endpoint.bind`.
 */

/** zigbee2mqtt's default clusters for a bind without a list: what a remote sends a light. */
const DEFAULT_CLUSTERS = ['genScenes', 'genOnOff', 'genLevelCtrl', 'lightingColorCtrl', 'closuresWindowCovering'];

type ZigbeeEndpoint = ReturnType<Controller['getDevicesByType']>[number]['endpoints'][number];

function endpointOf(device: ZigbeeDevice, id: unknown, what: string): ZigbeeEndpoint {
  const wanted = typeof id === 'number' ? device.getEndpoint(id) : device.endpoints[0];
  if (wanted === undefined)
    throw new HubError(
      'service_validation',
      `${what} endpoint ${String(id)} does not exist on ${device.ieeeAddr}: it has ${device.endpoints.map((e) => e.ID).join(', ')}`,
    );
  return wanted;
}

/** `find`: services.ts's findDevice (a paired device by IEEE address or name), passed in to keep the modules acyclic. */
export async function bindService(
  driver: ZigbeeHost,
  controller: Controller,
  call: ServiceCall,
  unbind: boolean,
  find: (ref: string) => ZigbeeDevice,
): Promise<JsonObject> {
  const source = find(String(call.data.source ?? ''));
  const targetRef = String(call.data.target ?? 'coordinator');
  const target = targetRef.toLowerCase() === 'coordinator' ? controller.getDevicesByType('Coordinator')[0] : find(targetRef);
  if (target === undefined) throw new HubError('hub_error', 'the coordinator is not known yet');
  const from = endpointOf(source, call.data.source_endpoint, 'source');
  const to = endpointOf(target, call.data.target_endpoint, 'target');
  const given = call.data.clusters;
  if (given !== undefined && given !== null && (!Array.isArray(given) || given.some((c) => typeof c !== 'string')))
    throw new HubError('service_validation', 'clusters must be a list of cluster names, e.g. ["genOnOff", "genLevelCtrl"]');
  const asked = Array.isArray(given) ? given.map(String) : undefined;
  // Without a list: the default clusters the source sends (output) and the target takes (input).
  const clusters = (asked ?? DEFAULT_CLUSTERS).filter(
    (c) => asked !== undefined || (from.supportsOutputCluster(c) && (target.type === 'Coordinator' || to.supportsInputCluster(c))),
  );
  if (clusters.length === 0)
    throw new HubError(
      'service_validation',
      `${driver.devices.nameOf(source.ieeeAddr)} sends none of ${DEFAULT_CLUSTERS.join(', ')} that the target takes: give clusters`,
    );
  const done: string[] = [];
  const failed: JsonObject[] = [];
  for (const cluster of clusters) {
    try {
      if (unbind) await from.unbind(cluster, to);
      else await from.bind(cluster, to);
      done.push(cluster);
    } catch (err) {
      failed.push({ cluster, error: err instanceof Error ? err.message : String(err) });
    }
  }
  if (done.length === 0)
    throw new HubError(
      'hub_error',
      `${unbind ? 'unbinding' : 'binding'} ${driver.devices.nameOf(source.ieeeAddr)} failed: ${failed.map((f) => `${f.cluster}: ${f.error}`).join('; ')}`,
    );
  const bindings = from.binds.map((b) => ({
    cluster: b.cluster.name,
    target: 'groupID' in b.target ? `group ${b.target.groupID}` : `${b.target.deviceIeeeAddress}/${b.target.ID}`,
  }));
  return { clusters: done, failed, bindings };
}
