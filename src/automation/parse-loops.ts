import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';
import { finishReader, isTemplate } from './config-values.js';
import { type Action, MAX_REPEAT_ITERATIONS, type RepeatLoop } from './model.js';
import { parseConditions } from './parse-conditions.js';
import { checkTemplate, checkTemplates } from './templating.js';

/** Passed in by parse-actions, so the two modules do not import each other. */
export type ParseActions = (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]) => Action[];

const LOOP_KEYS = ['count', 'while', 'until', 'for_each'] as const;

function readLoop(r: ConfigReader): RepeatLoop | undefined {
  // Reading every key marks it known, so the unknown-key message lists them all.
  for (const k of LOOP_KEYS) r.raw(k);
  const given = LOOP_KEYS.filter((k) => r.has(k));
  if (given.length !== 1) {
    r.problem(given[1] ?? 'count', `give exactly one of ${LOOP_KEYS.join(', ')}`);
    return undefined;
  }
  const key = given[0] as (typeof LOOP_KEYS)[number];
  const raw = r.raw(key);
  const path = [...r.path, key];
  switch (key) {
    case 'count':
      if (isTemplate(raw)) {
        checkTemplate(raw as string, path, r.issues);
        return { type: 'count', count: raw as string };
      }
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > MAX_REPEAT_ITERATIONS) {
        r.problem(key, `expected a whole number from 0 to ${MAX_REPEAT_ITERATIONS} or a template, got ${JSON.stringify(raw)}`);
        return undefined;
      }
      return { type: 'count', count: raw };
    case 'while':
    case 'until':
      return { type: key, conditions: parseConditions(raw, path, r.issues) };
    case 'for_each':
      if (!isTemplate(raw) && !Array.isArray(raw)) {
        r.problem(key, `expected a list of items or a template giving one, got ${kindOf(raw)}`);
        return undefined;
      }
      checkTemplates(raw, path, r.issues);
      return { type: 'for_each', items: raw ?? [] };
  }
}

/** `repeat: { count | while | until | for_each, sequence }`, as Home Assistant's REPEAT_SCHEMA. */
export function parseRepeat(
  r: ConfigReader,
  base: { continueOnError: boolean; alias?: string },
  parseActions: ParseActions,
): Action | undefined {
  const value = r.raw('repeat');
  const count = r.issues.length;
  const inner = ConfigReader.of(value ?? null, [...r.path, 'repeat'], r.issues);
  if (r.issues.length > count) return undefined;
  if (!inner.has('sequence')) inner.problem('sequence', 'is required: expected a list of actions');
  const loop = readLoop(inner);
  const sequence = parseActions(inner.raw('sequence'), [...inner.path, 'sequence'], r.issues);
  finishReader(inner);
  return loop === undefined ? undefined : { ...base, kind: 'repeat', loop, sequence };
}

/** `parallel: [action, ...]`: each item a branch; a `sequence:` item runs its steps in order within the branch. */
export function parseParallel(
  r: ConfigReader,
  base: { continueOnError: boolean; alias?: string },
  parseActions: ParseActions,
): Action | undefined {
  const branches = parseActions(r.raw('parallel'), [...r.path, 'parallel'], r.issues);
  return { ...base, kind: 'parallel', branches };
}
