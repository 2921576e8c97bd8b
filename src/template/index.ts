export { RenderSource, type SourceOptions, TemplateBudget } from './budget.js';
export { type ChangeHandler, TemplateDispatch } from './dispatch.js';
export {
  DEFAULT_TEMPLATE_LIMITS,
  type RenderOptions,
  type RenderOutcome,
  TemplateEngine,
  type TemplateEngineOptions,
  type TemplateLimits,
} from './engine.js';
export { isTimeout, TemplateError, type TemplateErrorKind } from './errors.js';
export { parseResult } from './literal.js';
export { LiveVariable } from './live.js';
export { pyNumber } from './py-format.js';
export { RenderInfo } from './render-info.js';
export { templateEngineFor, textRenderer } from './shared.js';
export { TemplateState } from './states.js';
