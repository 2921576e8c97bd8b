import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../core/log.js';
import type { AuthStore } from './store.js';
import type { User } from './types.js';

/**
 * Where the first visit stands:
 * - `create`: no users at all; the visitor creates the owner (name, username, password), as in Home Assistant.
 * - `claim`: the owner exists without a password (made by `hearth token create`); setting one needs the
 *   one-time code the hub printed to its log, or `hearth user password USERNAME` on the hub's machine.
 * - `closed`: a password was set once; onboarding never opens again.
 */
export type OnboardingState = { readonly kind: 'create' } | { readonly kind: 'claim'; readonly owner: User } | { readonly kind: 'closed' };

/** No 0/O, 1/I/L: the code is read off a log and typed on a phone. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

export class Onboarding {
  private oneTimeCode: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly auth: AuthStore,
    private readonly log: Logger,
  ) {}

  async state(): Promise<OnboardingState> {
    if (await this.auth.onboarded()) return { kind: 'closed' };
    const owner = this.auth.ownerUser();
    if (owner === undefined) return this.auth.users().length === 0 ? { kind: 'create' } : { kind: 'closed' };
    return { kind: 'claim', owner };
  }

  /** Logs the one-time code if the owner needs one; run at start so `serve` prints it. */
  async announce(): Promise<void> {
    if ((await this.state()).kind === 'claim') this.code();
  }

  /** The one-time code, made (and logged) the first time it is needed. */
  code(): string {
    if (this.oneTimeCode === undefined) {
      let code = '';
      for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      this.oneTimeCode = code;
      this.log.warn(
        { onboardingCode: formatCode(code) },
        `The owner has no password yet. Open the hub's web page and enter the one-time code ${formatCode(code)} to set one, or run: npx hearth user password USERNAME`,
      );
    }
    return this.oneTimeCode;
  }

  /** Whether a typed code is the one-time code (spaces, dashes and case do not matter). */
  checkCode(given: string): boolean {
    const want = Buffer.from(this.code());
    const got = Buffer.from(given.toUpperCase().replace(/[\s-]/g, '').slice(0, 64));
    return got.length === want.length && timingSafeEqual(got, want);
  }

  /** Runs onboarding steps one at a time, so two browsers racing cannot both create or claim the owner. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => {}).then(fn);
    this.queue = run;
    return run;
  }

  /** Forgets the code once onboarding is done, so it cannot be used again. */
  finish(): void {
    this.oneTimeCode = undefined;
  }
}

/** One Onboarding per auth store: the web pages and the REST onboarding API share its lock and one-time code. */
const byStore = new WeakMap<AuthStore, Onboarding>();

/** The auth store's Onboarding, made on first use with `log` (where the one-time code is logged). */
export function onboardingOf(auth: AuthStore, log: Logger): Onboarding {
  let onboarding = byStore.get(auth);
  if (onboarding === undefined) {
    onboarding = new Onboarding(auth, log);
    byStore.set(auth, onboarding);
  }
  return onboarding;
}

export function formatCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
