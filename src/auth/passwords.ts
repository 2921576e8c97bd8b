import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard) and a per-password random salt. The cost parameters are part
 * of the stored string, so they can be raised later without breaking existing passwords.
 *
 * N = 2^15, r = 8 needs 32 MiB and takes roughly 0.1 s on a Raspberry Pi 4: slow enough to make guessing
 * expensive, small enough for a Pi Zero's 512 MB.
 */
export const SCRYPT_COST = { log2N: 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Stored parameters outside these bounds are refused rather than run (a tampered file must not exhaust memory). */
const MAX_LOG2_N = 20;
const MAX_R = 16;
const MAX_P = 4;

export const MIN_PASSWORD_LENGTH = 8;
/** scrypt takes any length; the bound keeps a client from making the hub hash megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Derivations running at once (each holds 32 MiB) and waiting; more than that is refused as busy. */
const MAX_RUNNING = 2;
const MAX_WAITING = 16;

/** Too many password checks at once: the caller answers "busy, try again" instead of queueing without bound. */
export class PasswordCheckBusy extends Error {
  constructor() {
    super('too many password checks at once');
    this.name = 'PasswordCheckBusy';
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw new PasswordCheckBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next !== undefined) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        // maxmem must cover 128 * N * r * p; Node's default (32 MiB) is exactly the need at N=2^15, r=8, and too tight.
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r * p + 1024 * 1024 }, (err, key) => {
          if (err) reject(err);
          else resolve(key);
        });
      }),
  );
}

/** What is wrong with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'must not be only spaces';
  return undefined;
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url), safe to store. */
export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p } = SCRYPT_COST;
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, log2N, r, p);
  return `scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface ParsedHash {
  readonly log2N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [log2N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![log2N, r, p].every(Number.isInteger)) return undefined;
  if (log2N < 10 || log2N > MAX_LOG2_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || key.length !== KEY_LENGTH) return undefined;
  return { log2N, r, p, salt, key };
}

/** Whether `password` matches a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const parsed = parseHash(stored);
  if (parsed === undefined) return false;
  const key = await derive(password, parsed.salt, parsed.log2N, parsed.r, parsed.p);
  return timingSafeEqual(key, parsed.key);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same work as a real check, for a username that does not exist, so the answer's timing does
 * not tell which usernames do (as Home Assistant's auth provider does).
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
