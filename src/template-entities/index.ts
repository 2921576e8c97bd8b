import type { Integration, SectionParser } from '../integration/integration.js';
import { TemplateEntities } from './component.js';
import { parseTemplateSection, type TemplateBlock } from './config.js';
import { TEMPLATE_OWNER } from './entity.js';
import { LEGACY_SECTIONS, type LegacyPlatforms, type LegacySection, legacyItemOf, parseLegacySection } from './legacy.js';

export { TemplateEntities, type TemplateEntitiesOptions } from './component.js';
export { parseTemplateSection } from './config.js';
export { TEMPLATE_OWNER } from './entity.js';

type TemplateSections = { readonly template: SectionParser<TemplateBlock[]> } & {
  readonly [K in LegacySection]: SectionParser<LegacyPlatforms>;
};

const LEGACY_PARSERS = Object.fromEntries(
  (Object.keys(LEGACY_SECTIONS) as LegacySection[]).map((section): [LegacySection, SectionParser<LegacyPlatforms>] => [
    section,
    (value, path, issues) => parseLegacySection(section, value, path, issues),
  ]),
) as { readonly [K in LegacySection]: SectionParser<LegacyPlatforms> };

/**
 * `template:`: template sensors, binary sensors, switches, buttons, numbers and selects; and Home Assistant's legacy
 * `sensor:`/`binary_sensor:`/`switch:` lists, whose `- platform: template` entries are template entities too and
 * whose other platforms are ignored with one warning each.
 */
export const templateIntegration: Integration<TemplateSections, TemplateEntities> = {
  name: TEMPLATE_OWNER,
  sections: { template: parseTemplateSection, ...LEGACY_PARSERS },
  itemOf: legacyItemOf,
  create: (ctx, sections) => {
    const blocks = [...sections.template];
    for (const section of Object.keys(LEGACY_SECTIONS) as LegacySection[]) {
      const legacy = sections[section];
      blocks.push(...legacy.blocks);
      for (const i of legacy.ignored) {
        ctx.log.warn(
          { section: i.section, platform: i.platform },
          '%s[%s] (platform: %s) is ignored: %s',
          i.section,
          String(i.index),
          i.platform,
          i.reason,
        );
      }
    }
    return blocks.length === 0
      ? undefined
      : new TemplateEntities({ core: ctx.core, blocks, timeZone: ctx.timeZone.name, log: ctx.log, templates: ctx.templates });
  },
};
