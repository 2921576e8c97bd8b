import type { ZoneModel } from '../domains/zone.js';
import { parseDefaultConfig } from '../integration/default-config.js';
import { type Integration, optionalSection, type SectionParser } from '../integration/integration.js';
import { PRESENCE_OWNER, Presence } from './component.js';
import { type IgnoredTracker, type PersonConfig, parseDeviceTrackerSection, parsePersonSection, parseZoneSection } from './config.js';

export { PRESENCE_OWNER, Presence } from './component.js';

type PresenceSections = {
  readonly zone: SectionParser<ZoneModel[] | undefined>;
  readonly person: SectionParser<PersonConfig[] | undefined>;
  readonly device_tracker: SectionParser<IgnoredTracker[] | undefined>;
  readonly default_config: SectionParser<boolean>;
};

/**
 * `zone:`, `person:` and `device_tracker:`: zone.home and the zones, the persons and device_tracker.see. On with any of
 * them or with `default_config:` (Home Assistant loads zone and person with it); a broken zone or person is left out
 * alone.
 */
export const presenceIntegration: Integration<PresenceSections, Presence> = {
  name: PRESENCE_OWNER,
  sections: {
    zone: optionalSection(parseZoneSection),
    person: optionalSection(parsePersonSection),
    device_tracker: optionalSection(parseDeviceTrackerSection),
    default_config: parseDefaultConfig,
  },
  stage: 'core',
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, s) => {
    if (!s.default_config && s.zone === undefined && s.person === undefined && s.device_tracker === undefined) return undefined;
    return new Presence({
      core: ctx.core,
      log: ctx.log,
      hub: ctx.hub,
      zones: s.zone ?? [],
      persons: s.person ?? [],
      ignoredTrackers: s.device_tracker ?? [],
      lastState: ctx.lastState,
      reloadConfig: ctx.reloadConfig,
      dataDir: ctx.dataDir,
    });
  },
};
