import type { Integration } from '../integration/integration.js';
import { TemplateEntities } from './component.js';
import { TEMPLATE_OWNER } from './entity.js';
import { collectBlocks, legacyItemOf, TEMPLATE_SECTIONS, type TemplateSections } from './legacy.js';

export { TemplateEntities, type TemplateEntitiesOptions } from './component.js';
export { parseTemplateSection } from './config.js';
export { TEMPLATE_OWNER } from './entity.js';

/**
 * `template:`: template sensors, binary sensors, switches, buttons, numbers, selects, covers, lights and fans; and Home
 * Assistant's legacy `sensor:`/`binary_sensor:`/`switch:`/`cover:`/`light:`/`fan:` lists, whose `- platform: template`
 * entries are template entities too and
 * whose other platforms are ignored with one warning each. Always on, for `template.reload`.
 */
export const templateIntegration: Integration<TemplateSections, TemplateEntities> = {
  name: TEMPLATE_OWNER,
  sections: TEMPLATE_SECTIONS,
  itemOf: legacyItemOf,
  create: (ctx, sections) =>
    new TemplateEntities({
      core: ctx.core,
      blocks: collectBlocks(sections, ctx.log),
      timeZone: ctx.timeZone.name,
      log: ctx.log,
      templates: ctx.templates,
      reloadConfig: ctx.reloadConfig,
    }),
};
