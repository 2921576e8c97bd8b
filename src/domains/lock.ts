import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec, ValidData } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { ServiceCall } from '../core/services.js';
import { type Domain, dataOf, platformOf, registerEntityServices, supportsFeature, validationError } from './domain.js';

/** LockEntityFeature bits. */
export const LockFeature = { OPEN: 1 } as const;

export type LockState = 'locked' | 'unlocked' | 'locking' | 'unlocking' | 'jammed' | 'open' | 'opening';
export const LOCK_STATES: readonly LockState[] = ['locked', 'unlocked', 'locking', 'unlocking', 'jammed', 'open', 'opening'];

/** What a lock driver implements. `code` is given only when the caller sent a non-empty one. */
export interface LockPlatform {
  lock(code?: string): void | Promise<void>;
  unlock(code?: string): void | Promise<void>;
  /** Unlatch (feature OPEN). */
  open?(code?: string): void | Promise<void>;
}

export interface LockModel {
  /** null when not known (`unknown`). */
  readonly state: LockState | null;
  /** Who or what last operated the lock (keypad, a user, auto-lock), as the device says. */
  readonly changedBy?: string | null;
}

export interface LockOptions extends Omit<EntityInit<LockPlatform>, 'fixed'> {
  /**
   * A regular expression codes must match (Home Assistant's code_format), matched from the start of the code
   * as Python's re.match does. Without it, codes are not checked.
   */
  readonly codeFormat?: string;
  /** Defaults to OPEN when the platform can open. */
  readonly supportedFeatures?: number;
  readonly icon?: string;
}

export interface LockHandle {
  readonly entity: Entity<LockPlatform>;
  report(model: LockModel | null): void;
}

interface CodeCheck {
  readonly format: string;
  readonly pattern: RegExp;
}

/** Compiles a code_format the way Home Assistant applies it (re.match: anchored at the start only). */
export function compileCodeFormat(format: string): RegExp {
  return new RegExp(`^(?:${format})`);
}

/** LockEntity.state_attributes: changed_by and code_format, each only when set (and dropped when unavailable). */
export function lockStateAttributes(model: LockModel, codeFormat: string | undefined): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (model.changedBy !== null && model.changedBy !== undefined) out.changed_by = model.changedBy;
  if (codeFormat !== undefined) out.code_format = codeFormat;
  return out;
}

export function addLock(core: Core, options: LockOptions): LockHandle {
  // Compiled before registering, so a bad pattern fails the driver rather than every later call.
  const check =
    options.codeFormat === undefined ? undefined : { format: options.codeFormat, pattern: compileCodeFormat(options.codeFormat) };
  const fixed: Record<string, JsonValue> = {};
  if (options.icon) fixed.icon = options.icon;
  fixed.supported_features = options.supportedFeatures ?? (options.platform.open ? LockFeature.OPEN : 0);
  const entity = core.entities.add({ ...options, fixed, data: check });
  return {
    entity,
    report(model) {
      if (model === null) entity.report(null);
      else entity.report(model.state, lockStateAttributes(model, options.codeFormat));
    },
  };
}

/** See supportsFeature: explicitly named entities without the feature are refused, others skipped. */
function supports(e: Entity, call: ServiceCall, feature: number, service: string): boolean {
  return supportsFeature(e, call, feature, 'lock', service);
}

/** LockEntity.add_default_code: an absent code counts as "", and must match code_format when there is one. */
function codeFor(e: Entity, data: ValidData): string | undefined {
  const code = typeof data.code === 'string' ? data.code : '';
  const check = dataOf<CodeCheck>(e, 'lock');
  if (check && !check.pattern.test(code)) throw validationError(`The code for ${e.id} doesn't match pattern ${check.format}.`);
  return code === '' ? undefined : code;
}

function platform(e: Entity): LockPlatform {
  return platformOf<LockPlatform>(e, 'lock');
}

const CODE_SCHEMA = {
  fields: { code: { kind: 'text', maxLength: 255, description: 'Code used to operate the lock.' } satisfies FieldSpec },
};

export const lockDomain: Domain = {
  name: 'lock',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'lock', [
      {
        service: 'lock',
        name: 'Lock',
        description: 'Locks a lock.',
        schema: CODE_SCHEMA,
        run: (e, data) => platform(e).lock(codeFor(e, data)),
      },
      {
        service: 'unlock',
        name: 'Unlock',
        description: 'Unlocks a lock.',
        schema: CODE_SCHEMA,
        run: (e, data) => platform(e).unlock(codeFor(e, data)),
      },
      {
        service: 'open',
        name: 'Open',
        description: 'Opens a lock (unlatches the door).',
        schema: CODE_SCHEMA,
        run: (e, data, call) => {
          if (!supports(e, call, LockFeature.OPEN, 'open')) return undefined;
          const p = platform(e);
          const code = codeFor(e, data);
          if (!p.open) throw new HubError('not_supported', `${e.id} cannot open`);
          return p.open(code);
        },
      },
    ]);
  },

  /** lock/reproduce_state.py: lock, unlock or open when the lock is not already there (or on its way). */
  async reproduceState(core, entityId, desired, context) {
    const current = core.states.get(entityId)?.state;
    let service: string;
    if (desired.state === 'locked' || desired.state === 'locking') {
      if (current === 'locked' || current === 'locking') return;
      service = 'lock';
    } else if (desired.state === 'unlocked' || desired.state === 'unlocking') {
      if (current === 'unlocked' || current === 'unlocking') return;
      service = 'unlock';
    } else if (desired.state === 'open' || desired.state === 'opening') {
      if (current === 'open' || current === 'opening') return;
      service = 'open';
    } else return;
    await core.services.call('lock', service, { entity_id: entityId }, { context });
  },
};
