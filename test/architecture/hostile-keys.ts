import type { Test } from 'tap';
import { jsonPost } from '../api/rest/helpers.js';
import type { TestHub } from '../helpers/hub.js';

/**
 * Issue 32: every object used as a map keyed by a string from outside is a Map or has no prototype. Each path
 * (prototype-keys-*.test.ts, one file a way in) is fed the names an object inherits (`__proto__`, `constructor`,
 * `toString`, `hasOwnProperty`): the user sees a clear error or the literal string, GET /api/states stays valid
 * JSON, nothing crashes, and Object.prototype is never written to.
 */

export const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

/** An object with the hostile names as own keys, as JSON.parse makes them (a client's JSON: `__proto__` included). */
export function hostileObject(value: (key: string) => unknown): Record<string, unknown> {
  return JSON.parse(`{${HOSTILE_KEYS.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(value(k))}`).join(', ')}}`) as Record<
    string,
    unknown
  >;
}

/** JSON text with the hostile names as keys besides `extra`, `__proto__` holding what would pollute a prototype. */
export function hostileJson(extra: Record<string, unknown> = {}): string {
  const hostile = JSON.stringify(hostileObject((k) => (k === '__proto__' ? { polluted: 'yes' } : k.charAt(0).toLowerCase())));
  const own = JSON.stringify(extra);
  return own === '{}' ? hostile : `${own.slice(0, -1)}, ${hostile.slice(1)}`;
}

export function assertNotPolluted(t: Test): void {
  t.equal((Object.prototype as Record<string, unknown>).polluted, undefined, 'Object.prototype was not written to');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
}

/** GET /api/states answers valid JSON with every state a string. */
export async function assertStatesValid(t: Test, hub: TestHub): Promise<Record<string, unknown>[]> {
  const res = await hub.api('/api/states');
  t.equal(res.status, 200);
  const text = await res.text();
  let states: Record<string, unknown>[] = [];
  try {
    states = JSON.parse(text) as Record<string, unknown>[];
  } catch {
    t.fail(`GET /api/states is not JSON: ${text.slice(0, 200)}`);
  }
  t.ok(
    states.every((s) => typeof s.state === 'string'),
    'every state is a string',
  );
  return states;
}

export async function post(hub: TestHub, path: string, body: string): Promise<{ status: number; text: string }> {
  const res = await hub.api(path, jsonPost(body));
  return { status: res.status, text: await res.text() };
}
