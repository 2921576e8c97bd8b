import { isJsonObject, tryParseJson } from '../../core/json.js';
import { describe } from './schema.js';

export type AuthMessage = { readonly ok: true; readonly token: string | undefined } | { readonly ok: false; readonly problem: string };

/**
 * Reads the first frame of a connection against Home Assistant's auth schema: `type` "auth" and
 * `access_token` or the legacy `api_password` (strings, not both), nothing else. `token` is undefined for
 * an api_password, which hearth does not support (it is then just a wrong credential).
 */
export function readAuthMessage(text: string | undefined): AuthMessage {
  if (text === undefined) return fail('expected a JSON text frame, got a binary one');
  const parsed = tryParseJson(text);
  if (!parsed.ok) return fail('the frame is not valid JSON');
  const value = parsed.value;
  if (!isJsonObject(value)) return fail(`expected a JSON object. Got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== 'access_token' && key !== 'api_password') {
      return fail(`extra keys not allowed @ data['${key}']. Allowed keys: type, access_token`);
    }
  }
  if (value.type !== 'auth') {
    return fail(`expected 'auth' for dictionary value @ data['type']. Got ${value.type === undefined ? 'None' : describe(value.type)}`);
  }
  const { access_token: token, api_password: password } = value;
  if (token !== undefined && password !== undefined) {
    return fail("two or more values in the same group of exclusion 'login' @ data[<login>]");
  }
  if (password !== undefined) {
    if (typeof password !== 'string') return fail(`expected str for dictionary value @ data['api_password']. Got ${describe(password)}`);
    return { ok: true, token: undefined };
  }
  if (token === undefined) return fail("required key not provided @ data['access_token']. Got None");
  if (typeof token !== 'string') return fail(`expected str for dictionary value @ data['access_token']. Got ${describe(token)}`);
  return { ok: true, token };
}

function fail(problem: string): AuthMessage {
  return { ok: false, problem };
}
