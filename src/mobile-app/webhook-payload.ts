// Reading one webhook message (plain or encrypted) and sealing the answer, as Home Assistant's mobile_app does.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { decrypt, encrypt, type KeyScheme, keyOf } from './crypto.js';
import type { Registration } from './registrations.js';

/** What a webhook call asks for, once opened. */
export type OpenedMessage =
  | { readonly kind: 'ok'; readonly type: string; readonly data: JsonValue }
  /** Home Assistant answers these 200 `{}` after a log line: the app is not told why, and does not retry. */
  | { readonly kind: 'ignored'; readonly why: string };

const SCHEMES: readonly KeyScheme[] = ['hex', 'legacy'];

/**
 * `{"type": ..., "data": ...}`, or `{"type": ..., "encrypted": true, "encrypted_data": ...}` whose data is decrypted
 * with the registration's secret (the current key first; the legacy key only until the current one has worked).
 */
export function openMessage(
  registration: Registration,
  body: JsonValue,
  log: Logger,
  onScheme: (scheme: KeyScheme) => void,
): OpenedMessage {
  if (!isJsonObject(body)) return { kind: 'ignored', why: 'the body is not a JSON object' };
  const { type } = body;
  if (typeof type !== 'string') return { kind: 'ignored', why: "no 'type' (a string)" };
  if (body.encrypted !== true) return { kind: 'ok', type, data: body.data ?? {} };
  const secret = registration.secret;
  if (secret === null) return { kind: 'ignored', why: 'an encrypted payload but no key is known for this registration' };
  if (typeof body.encrypted_data !== 'string') return { kind: 'ignored', why: "an encrypted payload without 'encrypted_data'" };
  const schemes = registration.key_scheme === 'hex' ? (['hex'] as const) : SCHEMES;
  for (const scheme of schemes) {
    const plain = decrypt(body.encrypted_data, keyOf(secret, scheme));
    if (plain === undefined) continue;
    if (registration.key_scheme !== scheme) onScheme(scheme);
    try {
      return { kind: 'ok', type, data: JSON.parse(plain) as JsonValue };
    } catch {
      return { kind: 'ignored', why: 'invalid JSON in the encrypted payload' };
    }
  }
  log.warn({ device: registration.device_name }, 'Ignoring encrypted payload because unable to decrypt');
  return { kind: 'ignored', why: 'unable to decrypt' };
}

/** The answer's body: as it is, or `{"encrypted": true, "encrypted_data": ...}` for a phone that encrypts. */
export function sealAnswer(registration: Registration, data: JsonValue): string {
  const text = JSON.stringify(data);
  if (!registration.supports_encryption || registration.secret === null) return text;
  const sealed: JsonObject = {
    encrypted: true,
    encrypted_data: encrypt(text, keyOf(registration.secret, registration.key_scheme ?? 'legacy')),
  };
  return JSON.stringify(sealed);
}
