import type { JsonObject } from '../core/json.js';
import type { CoreExtras } from './core-section.js';
import type { LocatedIssue, SectionProblem } from './format.js';

export type UnitSystemName = 'metric' | 'us_customary';

/** The `hub:` section. */
export interface HubSection {
  readonly name: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly elevation: number;
  readonly unit_system: UnitSystemName;
  readonly time_zone: string;
  readonly currency: string;
  readonly country: string | null;
  readonly language: string;
  readonly port: number;
  readonly host: string;
  readonly max_entities: number;
  readonly external_url: string | null;
  readonly internal_url: string | null;
  /** Seconds within which a restorable state change reaches the disk; absent means the store's default (5). */
  readonly restore_flush_s?: number;
  /** The same for a device's own reports (no service call asked for them); default 60 s. */
  readonly restore_report_flush_s?: number;
}

/**
 * A loaded, validated configuration. Sections other than `hub:` are kept as parsed JSON and validated by
 * the module that owns them (drivers, automations), each reporting problems with file:line:column.
 */
export interface HubConfig {
  readonly hub: HubSection;
  /** Absolute path of the configuration file, or null for the bundled demo. */
  readonly path: string | null;
  readonly sections: Readonly<Record<string, JsonObject | readonly JsonObject[] | undefined>>;
  /** What each present section's validator read from it (the typed configuration its part is created with). */
  readonly parsed: ReadonlyMap<string, unknown>;
  /** Problems a lenient read let through (readConfigText), each naming its section; empty after a strict one. */
  readonly problems: readonly SectionProblem[];
  /** The rest of Home Assistant's `homeassistant:` keys (customize, allowlists...); absent in hand-made configurations. */
  readonly core?: CoreExtras;
  /** What was accepted but is not honoured: a Home Assistant integration's section hearth ignores, each said once. */
  readonly warnings?: readonly LocatedIssue[];
}
