import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import { INVALID_CONFIG_NOTIFICATION } from '../core/notifications.js';

/** At most this many parts are listed in the notification (the log names every one). */
const MAX_LISTED = 50;

/** Why a part is not running: left off, tried again by itself, or still starting past its deadline. */
export type PartState = 'off' | 'retrying' | 'starting';

interface Entry {
  readonly reason: string;
  readonly state: PartState;
}

const SAID: Readonly<Record<PartState, string>> = {
  off: 'is not started',
  retrying: 'is not started yet; retrying with backoff',
  starting: 'is still starting',
};
const SHOWN: Readonly<Record<PartState, string>> = { off: '', retrying: ' (retrying)', starting: ' (still starting)' };

/**
 * What could not be set up, said once: one log line per broken part (again only when its reason changes), and
 * Home Assistant's `invalid_config` persistent notification listing them all, updated as parts break or come up,
 * dismissed when none is left.
 */
export class SetupProblems {
  private readonly broken = new Map<string, Entry>();

  constructor(
    private readonly core: Core,
    private readonly log: Logger,
  ) {}

  /** `name` is not running because of `reason` (said again only when that changes). */
  report(name: string, reason: string, state: PartState = 'off', err?: unknown): void {
    const had = this.broken.get(name);
    if (had?.reason === reason && had.state === state) return;
    this.broken.set(name, { reason, state });
    const line = `${name} ${SAID[state]}: ${reason}`;
    if (state === 'starting') this.log.warn({ part: name }, line);
    else this.log.error({ part: name, err }, line);
    this.publish();
  }

  /** `name` runs now (after a retry). */
  clear(name: string): void {
    if (!this.broken.delete(name)) return;
    this.log.info({ part: name }, `${name} started`);
    this.publish();
  }

  has(name: string): boolean {
    return this.broken.has(name);
  }

  private publish(): void {
    const { notifications } = this.core;
    if (this.broken.size === 0) {
      notifications.dismiss(INVALID_CONFIG_NOTIFICATION);
      return;
    }
    const lines = [...this.broken].slice(0, MAX_LISTED).map(([name, e]) => ` - ${name}${SHOWN[e.state]}: ${e.reason}`);
    if (this.broken.size > MAX_LISTED) lines.push(` - and ${this.broken.size - MAX_LISTED} more (see the log)`);
    const message = `The following integrations and platforms could not be set up:\n\n${lines.join('\n')}\n\nPlease check your config and the log.`;
    notifications.create(message, 'Invalid config', INVALID_CONFIG_NOTIFICATION);
  }
}
