import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { Core } from '../core/core.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import { silentLogger } from '../core/log.js';
import { setOwn } from '../core/own-keys.js';
import type { State } from '../core/state.js';
import { isTemplate } from '../core/template-text.js';
import { isTimeout, LiveVariable, parseResult, type RenderInfo, TemplateEngine, TemplateError, TemplateState } from '../template/index.js';

/**
 * Templates inside automations, scripts and template entities: the load-time syntax check (each problem at its own
 * path), Home Assistant's render_complex for data, target and variables, and its readings of a result as a boolean.
 */

/** Variables a render sees: `trigger`, `this`, an automation's and a run's variables. */
export type TemplateVars = Readonly<Record<string, unknown>>;

let checker: TemplateEngine | undefined;

/** An engine over an empty core, only for compiling at load time (check-config has no hub). */
function syntaxChecker(): TemplateEngine {
  checker ??= new TemplateEngine({ core: new Core({ log: silentLogger, maxEntities: 1 }) });
  return checker;
}

/** Compiles one template; a syntax error is reported at the key's path (the loader adds file and line). */
export function checkTemplate(text: string, path: ConfigPath, issues: ConfigIssue[]): void {
  try {
    syntaxChecker().check(text, String(path[path.length - 1] ?? 'template'));
  } catch (err) {
    const where =
      err instanceof TemplateError && err.position !== undefined
        ? ` (line ${err.position.line}, column ${err.position.column} of the template)`
        : '';
    const message = err instanceof TemplateError ? `${err.templateKind}: ${err.detail}${where}` : String(err);
    issues.push({ path, message: `invalid template: ${message}` });
  }
}

/** Compiles every template string in a value (any depth), each reported at its own path. */
export function checkTemplates(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[], depth = 0): void {
  // Configs are small trees; the depth bound only guards against pathological input.
  if (depth > 32 || value === undefined || value === null) return;
  if (typeof value === 'string') {
    if (isTemplate(value)) checkTemplate(value, path, issues);
  } else if (Array.isArray(value)) {
    value.forEach((item: JsonValue, i: number) => {
      checkTemplates(item, [...path, i], issues, depth + 1);
    });
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) checkTemplates(item, [...path, key], issues, depth + 1);
  }
}

/** True when a value holds a template anywhere, so a run renders it (and a static value is used as it is). */
export function hasTemplate(value: JsonValue | undefined, depth = 0): boolean {
  if (depth > 32 || value === undefined || value === null) return false;
  if (typeof value === 'string') return isTemplate(value);
  if (Array.isArray(value)) return value.some((v: JsonValue) => hasTemplate(v, depth + 1));
  if (isJsonObject(value)) return Object.values(value).some((v) => hasTemplate(v, depth + 1));
  return false;
}

/**
 * Renders to text; throws a TemplateError naming the kind, the template and the position (renderText would throw
 * nunjucks' own error, which tryRender converts).
 */
export function render(engine: TemplateEngine, source: string, name: string, variables: TemplateVars): { text: string; info: RenderInfo } {
  const outcome = engine.tryRender(source, { name, variables });
  if (!outcome.ok) throw outcome.error;
  return { text: outcome.text, info: outcome.info };
}

/** Home Assistant's render_complex: each template string rendered and read as a Python literal; the rest kept. */
export function renderComplex(engine: TemplateEngine, value: JsonValue, variables: TemplateVars, name: string, depth = 0): JsonValue {
  if (typeof value === 'string') {
    if (!isTemplate(value)) return value;
    return parseResult(render(engine, value, name, variables).text) as JsonValue;
  }
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((v: JsonValue) => renderComplex(engine, v, variables, name, depth + 1));
  if (isJsonObject(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, renderComplex(engine, item, variables, name, depth + 1));
    return out;
  }
  return value;
}

/** Home Assistant's result_as_boolean: true, 'true', 'yes', 'on', 'enable' and non-zero numbers are true. */
export function resultAsBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['1', 'true', 'yes', 'on', 'enable'].includes(value.trim().toLowerCase());
  return false;
}

/** A template condition: the text, unparsed, lower-cased, is 'true' (condition.py async_template). */
export function renderCondition(
  engine: TemplateEngine,
  template: string,
  variables: TemplateVars,
  name: string,
): { value: boolean; info: RenderInfo } {
  const { text, info } = render(engine, template, name, variables);
  return { value: text.toLowerCase() === 'true', info };
}

/** A state as templates read it (`trigger.to_state.state`, `this.attributes.x`), or None. */
export function templateState(state: State | null | undefined): TemplateState | null {
  return state === null || state === undefined ? null : TemplateState.of(state);
}

/** `this`: an entity's state as templates read it, looked up when each render starts. */
export function liveThis(core: Core, entityId: string): LiveVariable {
  return new LiveVariable(() => templateState(core.states.get(entityId)));
}

/**
 * The level to log a render's failure at: the template budget's own errors (a render stopped at its deadline,
 * or not run while its source is suspended) at debug, since the budget already warned once about the source.
 */
export function levelFor(err: unknown, level: 'warn' | 'error'): 'debug' | 'warn' | 'error' {
  return isTimeout(err) ? 'debug' : level;
}

/** The message of any error out of a render, for logs and run results. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Home Assistant's ScriptVariables.async_render: each variable rendered in order, seeing those before it. As
 * defaults (an automation's or script's `variables:`), a name the caller already gave keeps its value.
 */
export function renderVariables(
  engine: TemplateEngine,
  definitions: Readonly<Record<string, JsonValue>>,
  base: Readonly<Record<string, unknown>>,
  name: string,
  asDefaults: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(definitions)) {
    if (asDefaults && Object.hasOwn(base, key)) continue;
    setOwn(out, key, renderComplex(engine, value, out, `${name} variables.${key}`));
  }
  return out;
}
