import type { Action } from '../automation/model.js';
import type { Context } from '../core/context.js';
import type { Entity } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import { addButton, type ButtonDeviceClass } from '../domains/button.js';
import type { DesiredState } from '../domains/domain.js';
import { addNumber, DEFAULT_NUMBER_MAX, DEFAULT_NUMBER_MIN, numberState } from '../domains/number.js';
import { addSelect, selectState } from '../domains/select.js';
import type { TemplateEntityDefinition } from './config.js';
import { addTemplateCover } from './cover.js';
import { type Presented, type Rendered, TEMPLATE_OWNER, type TemplateRenderer, TemplateWriter } from './entity.js';
import { addTemplateFan } from './fan.js';
import { addTemplateLight } from './light.js';
import { addTemplateLock } from './lock.js';
import type { PlatformContext, TemplateItem } from './platform-context.js';
import { actionRunner } from './scripts.js';

export type { PlatformContext, TemplateItem };

const DEVICE_ADDERS = { cover: addTemplateCover, light: addTemplateLight, fan: addTemplateFan, lock: addTemplateLock } as const;

/**
 * Adds the entity of `def` through its domain, with a platform whose services run the definition's actions (with
 * `this` and the service's value), as Home Assistant's template switch, button, number and select do.
 */
export function addTemplateEntity(
  ctx: PlatformContext,
  def: TemplateEntityDefinition,
  renderer: TemplateRenderer,
  triggered: boolean,
): TemplateItem {
  const { core } = ctx;
  const entityId = renderer.entityId;
  const script = (name: string, actions: readonly Action[] | undefined) => actionRunner(ctx, entityId, name, actions);
  let optimistic: string | null = def.domain === 'switch' ? 'off' : null;
  const base = { entityId, owner: TEMPLATE_OWNER, name: def.name, uniqueId: def.uniqueId };
  // Restore (Home Assistant's RestoreEntity): a trigger-based entity shows its last state until a trigger fires; an
  // entity without a state template takes its last state back without running its actions. One with a state template
  // is never restored through its services, since that would run its actions at every start.
  const restore = triggered || def.state === undefined;
  const restoreOptimistic = (valid: (state: string) => boolean) => (stored: DesiredState) => {
    if (def.state !== undefined || !valid(stored.state)) return;
    optimistic = stored.state;
    ctx.render(item);
  };
  /** A value set: shown at once without a state template (re-rendered) or when optimistic (until the next render). */
  const setOptimistic = (state: string | null, context: Context) => {
    if (def.state === undefined) {
      optimistic = state;
      ctx.render(item);
    } else if (def.optimistic) item.writer.writeState(state, context);
  };
  let entity: Entity;
  let adapt: ((r: Rendered) => Presented) | undefined;
  let own: (() => string | null) | undefined;
  switch (def.domain) {
    case 'switch': {
      const on = script('turn_on', def.turnOn);
      const off = script('turn_off', def.turnOff);
      const run = async (fn: typeof on, state: string) => {
        await fn({}, core.newContext());
        if (def.state === undefined) {
          optimistic = state;
          ctx.render(item);
        }
      };
      entity = core.entities.add({
        ...base,
        fixed: def.deviceClass === undefined ? {} : { device_class: def.deviceClass },
        restore: def.state === undefined,
        platform: {
          turnOn: () => run(on, 'on'),
          turnOff: () => run(off, 'off'),
          restoreState: restoreOptimistic((s) => s === 'on' || s === 'off'),
        },
      });
      break;
    }
    case 'button': {
      const press = script('press', def.press);
      // The domain records the press time (and restores it); renders write it as the state.
      const handle = addButton(core, {
        ...base,
        deviceClass: def.deviceClass as ButtonDeviceClass | undefined,
        platform: { press: (context) => press({}, context) },
      });
      entity = handle.entity;
      own = () => handle.data.pressedAt;
      break;
    }
    case 'number': {
      const setValue = script('set_value', def.setValue);
      const platform = {
        setValue: (value: number, context: Context) => {
          // As TemplateNumber.async_set_native_value: the optimistic value first, then the actions.
          setOptimistic(numberState(value, true), context);
          return setValue({ value }, context);
        },
        restoreState: restoreOptimistic((s) => s.trim() !== '' && Number.isFinite(Number(s))),
      };
      const handle = addNumber(core, {
        ...base,
        range: { min: DEFAULT_NUMBER_MIN, max: DEFAULT_NUMBER_MAX },
        unit: def.unit,
        restore,
        platform,
      });
      entity = handle.entity;
      adapt = (r) => {
        if (r.range !== undefined) handle.setRange(r.range);
        return { state: r.state ?? null, attributes: r.attributes };
      };
      break;
    }
    case 'select': {
      const selectOption = script('select_option', def.selectOption);
      const platform = {
        selectOption: (option: string, context: Context) => {
          setOptimistic(option, context);
          return selectOption({ option }, context);
        },
        restoreState: restoreOptimistic(() => true),
      };
      const handle = addSelect(core, { ...base, options: [], restore, platform });
      entity = handle.entity;
      adapt = (r) => {
        if (r.options !== undefined) handle.setOptions(r.options);
        return { state: selectState(r.options ?? [], r.state ?? null), attributes: r.attributes };
      };
      break;
    }
    case 'cover':
    case 'light':
    case 'fan':
    case 'lock': {
      const add = DEVICE_ADDERS[def.domain];
      const device = def.device ?? { templates: new Map(), actions: new Map() };
      ({ entity, adapt } = add({ ctx, def, device, entityId, log: ctx.env.log, writer: () => item.writer }));
      break;
    }
    default: {
      const fixed: Record<string, JsonValue> = {};
      if (def.stateClass !== undefined) fixed.state_class = def.stateClass;
      if (def.unit !== undefined) fixed.unit_of_measurement = def.unit;
      if (def.deviceClass !== undefined) fixed.device_class = def.deviceClass;
      entity = core.entities.add({
        ...base,
        fixed,
        restore: triggered,
        platform: { restoreState: () => undefined /* the triggers' next render is newer than the stored state */ },
      });
    }
  }
  const item: TemplateItem = {
    renderer,
    writer: new TemplateWriter(entity, def, adapt),
    optimistic: () => (own === undefined ? optimistic : own()),
    triggered,
  };
  // A trigger-based entity is unknown until its triggers first fire.
  if (triggered && core.states.get(entityId) === undefined) entity.report(null);
  return item;
}
