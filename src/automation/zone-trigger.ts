import type { Core } from '../core/core.js';
import type { HubEvent } from '../core/event-bus.js';
import type { ZoneTrigger } from './model.js';
import type { StateDispatch } from './state-dispatch.js';
import { info, type TriggerCallback } from './trigger-info.js';
import { stateInZone } from './zone-rules.js';

/** The zone trigger (homeassistant/components/zone/trigger.py): condition.zone before and after each change. */
/** Fires when an entity's position moves into (enter) or out of (leave) the zone. */
export function attachZone(
  env: { readonly core: Core; readonly states: StateDispatch },
  t: ZoneTrigger,
  fire: TriggerCallback,
): (() => void)[] {
  return t.entityIds.map((entityId) =>
    env.states.on(entityId, (event: HubEvent<'state_changed'>) => {
      const { old_state: from, new_state: to } = event.data;
      // A state without a position (or one removed) says nothing about the zone.
      if (to === null || typeof to.attributes.latitude !== 'number' || typeof to.attributes.longitude !== 'number') return;
      const zone = env.core.states.get(t.zone);
      if (zone === undefined) return;
      const wasIn = stateInZone(zone, from);
      const isIn = stateInZone(zone, to);
      if ((t.event === 'enter' && !wasIn && isIn) || (t.event === 'leave' && wasIn && !isIn)) {
        fire(
          info(t, {
            entity_id: entityId,
            from_state: from,
            to_state: to,
            zone,
            event: t.event,
            description: `${entityId} ${t.event === 'enter' ? 'entering' : 'leaving'} ${String(zone.attributes.friendly_name ?? t.zone)}`,
          }),
          event.context,
        );
      }
    }),
  );
}
