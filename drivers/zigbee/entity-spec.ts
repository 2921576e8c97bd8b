import type { ClimateSpec, FanSpec, LightSpec } from './composite-specs.js';

/** What hearth makes of one expose: the entity zigbee2mqtt's Home Assistant extension would announce (exposes.ts). */

type Scalar = string | number | boolean;

export interface SpecBase {
  /** zigbee2mqtt's object id: unique among the device's entities; the unique id is `<ieee>_<key>`, so it survives renames. */
  readonly key: string;
  /** The entity's name after the device's; undefined for the device's main entity (named as the device). */
  readonly label: string | undefined;
  readonly endpoint: string | undefined;
  /** The device-state keys the entity is rendered from. */
  readonly properties: readonly string[];
  /** Home Assistant's entity category, as zigbee2mqtt sets it (a sensor is never `config`). */
  readonly category?: 'config' | 'diagnostic';
  /** zigbee2mqtt's enabled_by_default: false makes a new registry entry disabled by the integration. */
  readonly enabledByDefault?: boolean;
  readonly icon?: string;
  /** The device class zigbee2mqtt gives it; dropped at build time when the domain has no such class. */
  readonly deviceClass?: string;
}

type Valued = { readonly property: string };
type OnOff = Valued & { readonly valueOn: Scalar; readonly valueOff: Scalar };

export type EntitySpec =
  | (SpecBase & { readonly kind: 'light'; readonly light: LightSpec })
  | (SpecBase & OnOff & { readonly kind: 'switch' })
  | (SpecBase &
      Valued & {
        readonly kind: 'sensor';
        readonly unit?: string;
        readonly stateClass?: 'measurement' | 'total_increasing';
        /** A list or composite: shown as JSON text, cut at 254 characters as zigbee2mqtt's template does. */
        readonly json?: boolean;
      })
  | (SpecBase & OnOff & { readonly kind: 'binary_sensor' })
  | (SpecBase & { readonly kind: 'cover'; readonly state: string; readonly position?: string; readonly tilt?: string })
  | (SpecBase & OnOff & { readonly kind: 'lock' })
  | (SpecBase & { readonly kind: 'climate'; readonly climate: ClimateSpec })
  | (SpecBase & { readonly kind: 'fan'; readonly fan: FanSpec })
  | (SpecBase & Valued & { readonly kind: 'select'; readonly options: readonly string[]; readonly readable: boolean })
  | (SpecBase &
      Valued & { readonly kind: 'number'; readonly min: number; readonly max: number; readonly step?: number; readonly unit?: string })
  | (SpecBase & Valued & { readonly kind: 'text'; readonly readable: boolean })
  | (SpecBase & Valued & { readonly kind: 'button'; readonly payload: string })
  | (SpecBase &
      Valued & { readonly kind: 'siren'; readonly tones: readonly string[]; readonly volume: boolean; readonly duration: boolean });

export type EntityKind = EntitySpec['kind'];
