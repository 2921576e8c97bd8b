import type { ConfigReader } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';
import type { TemplateEngine } from '../template/index.js';
import { parseDuration, readDuration } from './config-values.js';
import { checkTemplates, hasTemplate, renderComplex, type TemplateVars } from './templating.js';

/**
 * A duration key Home Assistant also takes as a template (`for:` of state, numeric_state and template triggers and
 * of the state condition; `timeout:` of wait_template and wait_for_trigger): fixed at load, or rendered when used.
 */
export interface DurationValue {
  readonly ms?: number;
  /** Rendered when the trigger fires, the condition is checked or the wait starts, to seconds, "HH:MM:SS" or a mapping. */
  readonly template?: JsonValue;
}

/** Reads such a key: a template (a string, or a mapping with one) is compiled now and rendered later. */
export function readDurationOrTemplate(r: ConfigReader, key: string): DurationValue {
  const raw = r.value[key];
  if (raw !== null && raw !== undefined && hasTemplate(raw)) {
    r.raw(key);
    checkTemplates(raw, [...r.path, key], r.issues);
    return { template: raw };
  }
  return { ms: readDuration(r, key) };
}

/** Renders a templated duration with the variables; throws an Error naming what it got when it is not a duration. */
export function renderDuration(engine: TemplateEngine, template: JsonValue, variables: TemplateVars, name: string): number {
  const value = renderComplex(engine, template, variables, name);
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const ms = parseDuration(value, [], issues);
  if (ms === undefined) throw new Error(issues[0]?.message ?? `${JSON.stringify(value)} is not a duration`);
  return ms;
}
