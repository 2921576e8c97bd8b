export { TemplateEntities, type TemplateEntitiesOptions } from './component.js';
export { parseTemplateSection, TEMPLATE_SECTION_VALIDATORS } from './config.js';
export { TEMPLATE_OWNER } from './entity.js';
