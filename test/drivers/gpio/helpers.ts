/** Shared by the GPIO and 1-Wire driver tests: a core with every domain, a recording logger, waiting on states. */
import { Core } from '../../../src/core/core.js';
import type { Logger } from '../../../src/core/log.js';
import type { State } from '../../../src/core/state.js';
import { DOMAINS } from '../../../src/domains/index.js';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface LogLine {
  readonly level: string;
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

/** A Logger that keeps every line (children included), for asserting what was logged and how often. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const at =
      (level: string) =>
      (a: object | string, b?: string): void => {
        if (typeof a === 'string') lines.push({ level, obj: { ...bindings }, msg: a });
        else lines.push({ level, obj: { ...bindings, ...(a as Record<string, unknown>) }, msg: b ?? '' });
      };
    return {
      trace: at('trace'),
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      fatal: at('fatal'),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return Object.assign(make({}), { lines });
}

export function newCore(log: Logger): Core {
  const core = new Core({ log });
  for (const domain of DOMAINS) domain.registerServices(core);
  return core;
}

export { waitForState } from '../../helpers/wait.js';

/** Waits until `check` holds, re-checking on every state_changed; rejects after `ms`. */
export function waitUntil(core: Core, check: () => boolean, what: string, ms = 3000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const off = core.bus.on('test-wait', 'state_changed', () => {
      if (!check()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** Every state string `entityId` is written with from now on. */
export function recordStates(t: Teardown, core: Core, entityId: string, render: (s: State) => string = (s) => s.state): string[] {
  const seen: string[] = [];
  const off = core.bus.on('test-record', 'state_changed', (event) => {
    const s = event.data.new_state;
    if (event.data.entity_id === entityId && s) seen.push(render(s));
  });
  t.teardown(off);
  return seen;
}
