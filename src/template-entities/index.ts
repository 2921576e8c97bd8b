import type { Integration, SectionParser } from '../integration/integration.js';
import { TemplateEntities } from './component.js';
import { parseTemplateSection, type TemplateBlock, templateItemOf } from './config.js';
import { TEMPLATE_OWNER } from './entity.js';

export { TemplateEntities, type TemplateEntitiesOptions } from './component.js';
export { parseTemplateSection } from './config.js';
export { TEMPLATE_OWNER } from './entity.js';

/** `template:`: template sensors, binary sensors, switches, buttons, numbers and selects. */
export const templateIntegration: Integration<{ template: SectionParser<TemplateBlock[]> }, TemplateEntities> = {
  name: TEMPLATE_OWNER,
  sections: { template: parseTemplateSection },
  itemOf: templateItemOf,
  create: (ctx, { template }) =>
    template.length === 0
      ? undefined
      : new TemplateEntities({ core: ctx.core, blocks: template, timeZone: ctx.timeZone.name, log: ctx.log, templates: ctx.templates }),
};
