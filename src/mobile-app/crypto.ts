// mobile_app's encrypted webhook payloads: libsodium's crypto_secretbox (XSalsa20-Poly1305), here through tweetnacl,
// which implements the same construction. Loaded on first use: most phones never encrypt on a LAN.
import { createRequire } from 'node:module';

interface Nacl {
  secretbox: ((message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array) & {
    open(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array | null;
    readonly nonceLength: number;
    readonly keyLength: number;
  };
  randomBytes(n: number): Uint8Array;
}

let nacl: Nacl | undefined;
function sodium(): Nacl {
  nacl ??= createRequire(import.meta.url)('tweetnacl') as Nacl;
  return nacl;
}

const KEY_LENGTH = 32;

/**
 * The two keys Home Assistant accepts for a registration's hex secret: the secret's bytes (current apps, HexEncoder)
 * and, for older apps, the secret's first 32 UTF-8 characters ("legacy" encryption).
 */
export type KeyScheme = 'hex' | 'legacy';

export function keyOf(secret: string, scheme: KeyScheme): Uint8Array {
  if (scheme === 'hex') return Uint8Array.from(Buffer.from(secret, 'hex').subarray(0, KEY_LENGTH));
  const bytes = new Uint8Array(KEY_LENGTH);
  bytes.set(Buffer.from(secret, 'utf8').subarray(0, KEY_LENGTH));
  return bytes;
}

/** Base64 of nonce + box, as PyNaCl's `SecretBox.encrypt(..., encoder=Base64Encoder)` writes it. */
export function encrypt(plain: string, key: Uint8Array): string {
  const n = sodium();
  const nonce = n.randomBytes(n.secretbox.nonceLength);
  const box = n.secretbox(Buffer.from(plain, 'utf8'), nonce, key);
  return Buffer.concat([nonce, box]).toString('base64');
}

/** The plain text of such a payload, or undefined when it does not open with the key. */
export function decrypt(encoded: string, key: Uint8Array): string | undefined {
  const n = sodium();
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < n.secretbox.nonceLength + 16) return undefined;
  const opened = n.secretbox.open(bytes.subarray(n.secretbox.nonceLength), bytes.subarray(0, n.secretbox.nonceLength), key);
  return opened === null ? undefined : Buffer.from(opened).toString('utf8');
}

/** A new registration secret: 32 random bytes as hex (Home Assistant's `secrets.token_hex(SecretBox.KEY_SIZE)`). */
export function newSecret(): string {
  return Buffer.from(sodium().randomBytes(KEY_LENGTH)).toString('hex');
}
