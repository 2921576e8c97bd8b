// Home Assistant's RequestDataValidator answers (homeassistant/components/http/data_validator.py): a body that is
// not a JSON object is "Invalid JSON.", a voluptuous schema problem is "Message format incorrect: <error>".
import { stringFieldProblem } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import { ownValue, setOwn } from '../../core/own-keys.js';
import type { Reply } from '../../http/http.js';
import { readJsonBody } from './json-body.js';

/** Fields longer than this are nobody's client id, username or password. */
export const MAX_FIELD = 2048;

/** Reads a JSON object body; answers Home Assistant's 400 and returns undefined when there is none. */
export async function jsonObjectBody(reply: Reply): Promise<JsonObject | undefined> {
  const body = await readJsonBody(reply);
  if (body.kind !== 'json' || !isJsonObject(body.value)) {
    reply.message(400, 'Invalid JSON.');
    return undefined;
  }
  return body.value;
}

/** The string at `key`, or Home Assistant's RequestDataValidator message (answered) when it is missing or not one. */
export function requiredString(reply: Reply, data: JsonObject, key: string): string | undefined {
  const value = ownValue(data, key);
  const problem = stringFieldProblem(data, key, MAX_FIELD);
  if (typeof value === 'string' && problem === undefined) return value;
  reply.message(400, `Message format incorrect: ${problem}`);
  return undefined;
}

/**
 * The strings at `keys` (a voluptuous schema of required strings, which refuses extra keys), or undefined with the
 * first problem answered.
 */
export function requiredStrings<K extends string>(reply: Reply, data: JsonObject, keys: readonly K[]): Record<K, string> | undefined {
  const out = Object.create(null) as Record<K, string>;
  for (const key of keys) {
    const value = requiredString(reply, data, key);
    if (value === undefined) return undefined;
    setOwn(out, key, value);
  }
  const extra = Object.keys(data).find((k) => !(keys as readonly string[]).includes(k));
  if (extra !== undefined) {
    reply.message(400, `Message format incorrect: extra keys not allowed @ data['${extra.slice(0, 100)}']`);
    return undefined;
  }
  return out;
}
