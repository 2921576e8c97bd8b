import { HubError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { isTemplate } from '../core/template-text.js';

/**
 * Renders a Home Assistant template with variables (`value`, `value_json`, `entity_id`...). The hub passes the
 * template engine in; without one, `fallbackRenderer` handles the forms MQTT payloads use most.
 */
export interface TemplateRenderer {
  (template: string, variables: JsonObject): string;
  /**
   * A renderer for one configured thing (an adopted entity, a device trigger), from the hub's engine: the
   * template budget counts its renders as one source, and suspends them all when they run out of time (telling
   * `onWarning` once), until a new configuration makes a new renderer. Absent: `scopedRenderer` uses this one.
   */
  readonly scoped?: (name: string, onWarning: (message: string) => void) => ScopedRenderer;
}

/** A renderer of one configured thing (TemplateRenderer.scoped). */
export interface ScopedRenderer {
  (template: string, variables: JsonObject): string;
  /**
   * Runs `job` (the handling of one message) now when the template budget has room, else later, in order with
   * this renderer's other waiting jobs; at most `MAX_WAITING` wait, the oldest dropped first.
   */
  gate(job: () => void): void;
  /** Drops the waiting jobs (the entity is removed or configured again). */
  close(): void;
}

/** Messages of one entity waiting for room in the template budget. */
export const MAX_WAITING = 64;

/** `render.scoped`, or `render` itself with no budget (the built-in renderer). */
export function scopedRenderer(render: TemplateRenderer, name: string, onWarning: (message: string) => void): ScopedRenderer {
  if (render.scoped !== undefined) return render.scoped(name, onWarning);
  const plain = ((template: string, variables: JsonObject) => render(template, variables)) as ScopedRenderer & {
    gate: ScopedRenderer['gate'];
    close: ScopedRenderer['close'];
  };
  const gate: ScopedRenderer['gate'] = (job) => job();
  const close: ScopedRenderer['close'] = () => undefined;
  plain.gate = gate;
  plain.close = close;
  return plain;
}

/**
 * Whether a render failed for the template budget (stopped at its deadline, refused, or not run while its
 * source is suspended): the budget has warned about it once already, so it is not logged again.
 */
export function isBudgetError(err: unknown): boolean {
  return err instanceof HubError && err.kind === 'template_error' && (err as { templateKind?: unknown }).templateKind === 'TimeoutError';
}

const WHOLE = /^\s*\{\{\s*(.*?)\s*\}\}\s*$/s;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

/** `value_json.a['b'][0].c` as a path; undefined when the expression is anything else. */
function parsePath(expr: string): (string | number)[] | undefined {
  const head = IDENT.exec(expr);
  if (head === null) return undefined;
  const path: (string | number)[] = [head[0]];
  let rest = expr.slice(head[0].length);
  for (let i = 0; rest !== '' && i < 64; i++) {
    const dot = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    const quoted = /^\[\s*(['"])(.*?)\1\s*\]/.exec(rest);
    const index = /^\[\s*(\d+)\s*\]/.exec(rest);
    if (dot) path.push(dot[1] ?? '');
    else if (quoted) path.push(quoted[2] ?? '');
    else if (index) path.push(Number(index[1]));
    else return undefined;
    rest = rest.slice((dot ?? quoted ?? index)?.[0].length ?? rest.length);
  }
  return rest === '' ? path : undefined;
}

function lookup(root: JsonObject, path: readonly (string | number)[]): JsonValue | undefined {
  let at: JsonValue | undefined = root;
  for (const key of path) {
    if (at === null || at === undefined || typeof at !== 'object') return undefined;
    if (Array.isArray(at)) at = typeof key === 'number' ? (at as JsonValue[])[key] : undefined;
    else at = Object.hasOwn(at, key) ? (at as JsonObject)[String(key)] : undefined;
  }
  return at;
}

function print(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

/**
 * The built-in renderer: text, and whole-template expressions `{{ value }}`, `{{ value_json.key }}`,
 * `{{ value_json['key'] }}` and nested paths. Anything else is refused, naming the template.
 */
export const fallbackRenderer: TemplateRenderer = (template, variables) => {
  if (!isTemplate(template)) return template;
  const m = WHOLE.exec(template);
  const path = m ? parsePath(m[1] ?? '') : undefined;
  if (path === undefined) {
    throw new HubError(
      'invalid_format',
      `template ${JSON.stringify(template)} is not supported here: without the template engine only {{ value }}, {{ value_json.key }} and {{ value_json['key'] }} are`,
    );
  }
  return print(lookup(variables, path));
};

/** The variables of a received payload: `value`, and `value_json` when it parses as JSON. */
export function payloadVariables(payload: string, extra: JsonObject = {}): JsonObject {
  let valueJson: JsonValue | undefined;
  try {
    valueJson = JSON.parse(payload) as JsonValue;
  } catch {
    valueJson = undefined;
  }
  return valueJson === undefined ? { ...extra, value: payload } : { ...extra, value: payload, value_json: valueJson };
}
