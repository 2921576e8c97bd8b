import type { Core } from '../core/core.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { addAutomation } from '../domains/automation.js';
import type { Broken } from '../integration/integration.js';
import { AUTOMATION_OWNER } from './automations.js';
import { objectIdFrom, uniqueObjectId } from './parse-sections.js';

/**
 * Home Assistant's UnavailableAutomationEntity: an automation whose configuration is wrong is still an entity,
 * `unavailable`, under the id its alias gives it, so the automation list shows it (and the editor can open it)
 * while the log and the `invalid_config` notification say what is wrong. Its services do nothing: HA's entity
 * services skip an unavailable entity.
 */
export class UnavailableAutomations {
  private readonly entityIds: string[] = [];

  constructor(
    private readonly core: Core,
    private readonly log: Logger,
  ) {}

  /** An entity for each left-out item of `automation:`; `taken`: the object ids of the automations that run. */
  start(broken: readonly Broken[], taken: Iterable<string>): void {
    const ids = new Set(taken);
    for (const { item } of broken) {
      if (item === undefined || item.path[0] !== 'automation' || typeof item.path[1] !== 'number') continue;
      const i = item.path[1];
      const value = isJsonObject(item.value) ? item.value : {};
      const alias = typeof value.alias === 'string' ? value.alias : undefined;
      const uniqueId = typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : undefined;
      const objectId = uniqueObjectId(objectIdFrom(uniqueId, alias, `automation_${i}`), ids);
      try {
        const handle = addAutomation(this.core, {
          entityId: `automation.${objectId}`,
          owner: AUTOMATION_OWNER,
          name: alias ?? uniqueId ?? `automation ${i}`,
          uniqueId,
          platform: { trigger: async () => {}, turnOn: () => {}, turnOff: () => {} },
        });
        const friendly = alias ?? uniqueId ?? `automation ${i}`;
        const attributes: JsonObject = uniqueId === undefined ? { friendly_name: friendly } : { id: uniqueId, friendly_name: friendly };
        handle.entity.report('unavailable', attributes);
        this.entityIds.push(handle.entity.id);
      } catch (err) {
        this.log.warn({ err, automation: objectId }, 'automation.%s: no unavailable entity for it', objectId);
      }
    }
  }

  stop(): void {
    for (const id of this.entityIds) this.core.entities.remove(id);
    this.entityIds.length = 0;
  }
}
