import type { Core } from '../core/core.js';
import { domainOf } from '../core/entity-id.js';
import { TARGET_KEYS } from '../core/fields.js';
import type { JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import type { ServiceCall } from '../core/services.js';
import type { TargetSelector } from '../core/targets.js';
import { DOMAIN_OWNER, type Domain } from './domain.js';

const GENERIC_SERVICES = [
  ['turn_on', 'Generic turn on', 'Generic action to turn devices on under any domain.'],
  ['turn_off', 'Generic turn off', 'Generic action to turn devices off under any domain.'],
  ['toggle', 'Generic toggle', 'Generic action to toggle devices on/off under any domain.'],
] as const;
const TARGET_KEY_SET: ReadonlySet<string> = new Set(TARGET_KEYS);

/** Every entity a call's target names: explicit ids, plus those its devices, areas, floors and labels hold. */
function referencedEntities(core: Core, target: TargetSelector): { all: Set<string>; explicit: Set<string> } {
  const explicit = new Set<string>();
  for (const id of target.entity_id ?? []) {
    if (id === 'all') for (const e of core.entities.all()) explicit.add(e.id);
    else if (id !== 'none') explicit.add(id);
  }
  const all = new Set(explicit);
  if (target.device_id || target.area_id || target.floor_id || target.label_id) {
    const indirect: TargetSelector = {
      device_id: target.device_id,
      area_id: target.area_id,
      floor_id: target.floor_id,
      label_id: target.label_id,
    };
    for (const domain of core.services.domains()) {
      for (const entity of core.services.resolveEntities(domain, indirect)) all.add(entity.id);
    }
  }
  return { all, explicit };
}

/**
 * homeassistant.turn_on/turn_off/toggle, as Home Assistant does them: the target's entities grouped by
 * domain, `<domain>.<same service>` called for each with the same data and the same context (so the
 * changes show up in the REST answer), domains without that service skipped with a warning.
 */
async function turnService(core: Core, call: ServiceCall): Promise<void> {
  const log = core.log.child({ domain: 'homeassistant' });
  const { all, explicit } = referencedEntities(core, call.target);
  if (all.size === 0) {
    log.warn({}, 'The service homeassistant.%s cannot be called without a target', call.service);
    return;
  }
  const byDomain = new Map<string, string[]>();
  for (const id of [...all].sort()) {
    const domain = domainOf(id);
    const ids = byDomain.get(domain);
    if (ids === undefined) byDomain.set(domain, [id]);
    else ids.push(id);
  }
  const data: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(call.data)) if (!TARGET_KEY_SET.has(key)) setOwn(data, key, value);
  const unsupported: string[] = [];
  const calls: Promise<unknown>[] = [];
  for (const [domain, ids] of byDomain) {
    if (domain === 'homeassistant') {
      log.warn({}, 'Called service homeassistant.%s with invalid entities %s', call.service, ids);
      continue;
    }
    if (!core.services.has(domain, call.service)) {
      unsupported.push(...ids.filter((id) => explicit.has(id)));
      continue;
    }
    calls.push(core.services.call(domain, call.service, { ...data, entity_id: ids }, { context: call.context }));
  }
  if (unsupported.length > 0) {
    log.warn({}, 'The service homeassistant.%s does not support entities %s', call.service, unsupported.sort());
  }
  await Promise.all(calls);
}

export const homeassistantDomain: Domain = {
  name: 'homeassistant',
  registerServices(core: Core): void {
    for (const [service, name, description] of GENERIC_SERVICES) {
      core.services.register(DOMAIN_OWNER, {
        domain: 'homeassistant',
        service,
        name,
        description,
        // Any other data is passed on to the domain's own service, which validates it.
        schema: { fields: { entity_id: { kind: 'entities', description: 'The entities to act on, in any domain.' } }, allowExtra: true },
        handler: (call) => turnService(core, call),
      });
    }
    core.services.register(DOMAIN_OWNER, {
      domain: 'homeassistant',
      service: 'update_entity',
      name: 'Update entity',
      description: 'Forces one or more entities to update their data. Entities here push their state, so this does nothing.',
      schema: { fields: { entity_id: { kind: 'entities', required: true, description: 'The entities to update.' } } },
      handler: () => undefined,
    });
  },
};
