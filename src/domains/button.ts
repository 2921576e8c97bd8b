import { isoFromMicros, microsFromIso } from '../core/clock.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import type { Attributes } from '../core/state.js';
import { type Domain, dataOf, platformOf, registerEntityServices } from './domain.js';

/** Home Assistant's ButtonDeviceClass values. */
export const BUTTON_DEVICE_CLASSES = ['identify', 'restart', 'update'] as const;
export type ButtonDeviceClass = (typeof BUTTON_DEVICE_CLASSES)[number];

/** What a button's provider implements: what a press does (the domain records when it happened). */
export interface ButtonPlatform {
  press(context: Context): void | Promise<void>;
}

/**
 * The domain's record of a button (Home Assistant's ButtonEntity keeps it, not the integration): the ISO time of the
 * last press, null before the first (`unknown`). Providers that write the state themselves read it from here.
 */
export interface ButtonData {
  pressedAt: string | null;
}

export interface ButtonOptions extends Omit<EntityInit<ButtonPlatform>, 'fixed' | 'data'> {
  readonly deviceClass?: ButtonDeviceClass;
  readonly icon?: string;
}

export interface ButtonHandle {
  readonly entity: Entity<ButtonPlatform, ButtonData>;
  readonly data: ButtonData;
  /** Writes the last press as the state (with the provider's other attributes, if any). */
  report(attributes?: Attributes): void;
}

/** Fixed attributes in Home Assistant's order: device_class, icon. */
export function buttonFixed(deviceClass: string | undefined, icon: string | undefined): Attributes {
  const fixed: Record<string, JsonValue> = {};
  if (deviceClass !== undefined) fixed.device_class = deviceClass;
  if (icon !== undefined) fixed.icon = icon;
  return fixed;
}

/** Adds a button; it is `unknown` until its first press (or its restored last press). */
export function addButton(core: Core, options: ButtonOptions): ButtonHandle {
  const { deviceClass, icon, ...init } = options;
  const data: ButtonData = { pressedAt: null };
  const entity = core.entities.add<ButtonPlatform, ButtonData>({ ...init, fixed: buttonFixed(deviceClass, icon), data });
  return {
    entity,
    data,
    report(attributes) {
      entity.report(data.pressedAt, attributes);
    },
  };
}

/** The attributes a provider reported beside the fixed ones, so writing the press time keeps them. */
function reportedAttributes(entity: Entity): Attributes | undefined {
  const all = entity.attributes;
  if (all === undefined) return undefined;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(all)) if (!Object.hasOwn(entity.fixed, k) && k !== 'restored') setOwn(out, k, v);
  return out;
}

const p = (e: Entity) => platformOf<ButtonPlatform>(e, 'button');

function dataFor(e: Entity): ButtonData {
  const data = dataOf<ButtonData>(e, 'button');
  if (data === undefined) throw new Error(`${e.id} was added without its button data (use addButton)`);
  return data;
}

export const buttonDomain: Domain = {
  name: 'button',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'button', [
      {
        service: 'press',
        name: 'Press',
        description: 'Press the button entity.',
        // As ButtonEntity._async_press_action: the press time is written first, then the provider acts.
        run: (e, _d, c) => {
          dataFor(e).pressedAt = isoFromMicros(core.clock.now());
          if (e.available) e.report(dataFor(e).pressedAt, reportedAttributes(e), c.context);
          return p(e).press(c.context);
        },
      },
    ]);
  },
  // A scene never presses a button; restore state only takes the last press time back.
  restoreState(entity, stored, context) {
    const data = dataOf<ButtonData>(entity, 'button');
    if (data === undefined || microsFromIso(stored.state) === undefined) return;
    data.pressedAt = stored.state;
    if (entity.available) entity.report(stored.state, reportedAttributes(entity), context);
  },
};
