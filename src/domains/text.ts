import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import { type Domain, dataOf, platformOf, registerEntityServices } from './domain.js';

/** Home Assistant's `text` domain (a device's settable text, e.g. a Zigbee device's); input_text is the helper. */

/** What a text's provider implements; the value already fits min, max and pattern (the domain refuses others). */
export interface TextPlatform {
  setValue(value: string, context: Context): void | Promise<void>;
}

export type TextMode = 'text' | 'password';

/** The domain's per-entity data: what set_value is checked against. */
export interface TextData {
  readonly min: number;
  readonly max: number;
  readonly pattern: string | null;
  readonly mode: TextMode;
}

export interface TextOptions extends Omit<EntityInit<TextPlatform>, 'fixed' | 'data'> {
  /** Home Assistant's defaults: 0, 255, no pattern, text. */
  readonly limits?: Partial<TextData>;
  readonly icon?: string;
}

/** Fixed attributes in Home Assistant's order: mode, min, max, pattern (capabilities), icon. */
export function addText(core: Core, options: TextOptions) {
  const { limits, icon, ...init } = options;
  const data: TextData = { min: limits?.min ?? 0, max: limits?.max ?? 255, pattern: limits?.pattern ?? null, mode: limits?.mode ?? 'text' };
  const fixed: Record<string, JsonValue> = { mode: data.mode, min: data.min, max: data.max, pattern: data.pattern };
  if (icon !== undefined) fixed.icon = icon;
  const entity = core.entities.add<TextPlatform, TextData>({ ...init, fixed, data });
  return {
    entity,
    /** The current text; null is `unknown`. */
    report(value: string | null): void {
      entity.report(value);
    },
  };
}

const p = (e: Entity) => platformOf<TextPlatform>(e, 'text');

/** text's _async_set_value checks, in its words. */
function check(e: Entity, value: string): void {
  const d = dataOf<TextData>(e, 'text') ?? { min: 0, max: 255, pattern: null, mode: 'text' };
  const fail = (why: string) => new HubError('service_validation', `Value ${value} for ${e.id} ${why}`);
  if (value.length < d.min) throw fail(`is too short (minimum length ${d.min})`);
  if (value.length > d.max) throw fail(`is too long (maximum length ${d.max})`);
  if (d.pattern !== null && !new RegExp(`^(?:${d.pattern})`).test(value)) throw fail(`doesn't match pattern ${d.pattern}`);
}

export const textDomain: Domain = {
  name: 'text',
  registerServices(core: Core): void {
    registerEntityServices(core, 'text', [
      {
        service: 'set_value',
        name: 'Set value',
        description: 'Sets the value.',
        fields: { value: { kind: 'text', required: true, description: 'Enter your text.' } },
        run: (e, d, c) => {
          check(e, d.value as string);
          return p(e).setValue(d.value as string, c.context);
        },
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    await core.services.call('text', 'set_value', { entity_id: entityId, value: desired.state }, { context });
  },
};
