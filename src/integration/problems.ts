import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import { INVALID_CONFIG_NOTIFICATION } from '../core/notifications.js';

/** At most this many parts are listed in the notification (the log names every one). */
const MAX_LISTED = 50;

interface Entry {
  readonly reason: string;
  readonly retrying: boolean;
}

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

  /** `name` could not be set up because of `reason`; `retrying` when it is tried again by itself. */
  report(name: string, reason: string, options: { readonly retrying?: boolean; readonly err?: unknown } = {}): void {
    const retrying = options.retrying === true;
    const had = this.broken.get(name);
    if (had?.reason === reason && had.retrying === retrying) return;
    this.broken.set(name, { reason, retrying });
    const what = retrying ? 'is not started yet; retrying with backoff' : 'is not started';
    this.log.error({ part: name, err: options.err }, `${name} ${what}: ${reason}`);
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
    const lines = [...this.broken].slice(0, MAX_LISTED).map(([name, e]) => ` - ${name}${e.retrying ? ' (retrying)' : ''}: ${e.reason}`);
    if (this.broken.size > MAX_LISTED) lines.push(` - and ${this.broken.size - MAX_LISTED} more (see the log)`);
    const message = `The following integrations and platforms could not be set up:\n\n${lines.join('\n')}\n\nPlease check your config and the log.`;
    notifications.create(message, 'Invalid config', INVALID_CONFIG_NOTIFICATION);
  }
}
