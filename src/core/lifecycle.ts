import type { Component } from './component.js';
import type { Logger } from './log.js';

export interface LifecycleOptions {
  readonly log: Logger;
  /** How long a component may take to start (default 10 s). */
  readonly startDeadlineMs?: number;
  /**
   * How long a component may take to stop (default 3 s): a hung one cannot keep the process from exiting inside
   * the CLI's 5 s SIGTERM budget.
   */
  readonly stopDeadlineMs?: number;
}

const DEFAULT_START_DEADLINE_MS = 10_000;
const DEFAULT_STOP_DEADLINE_MS = 3_000;

/** Thrown when a required component fails or overruns its start deadline; names the component. */
export class ComponentStartError extends Error {
  constructor(
    readonly component: string,
    override readonly cause: unknown,
  ) {
    super(`${component} failed to start: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ComponentStartError';
  }
}

export type Outcome = { readonly kind: 'done' } | { readonly kind: 'failed'; readonly err: unknown } | { readonly kind: 'deadline' };

/** Settles with what became of `work` within `ms`; the work itself goes on after a deadline. */
export async function within(work: () => Promise<void>, ms: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'deadline' }), ms);
  });
  const run = Promise.resolve()
    .then(work)
    .then(
      (): Outcome => ({ kind: 'done' }),
      (err: unknown): Outcome => ({ kind: 'failed', err }),
    );
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts an ordered list of components forward and stops it backward, each step with a deadline. An optional
 * component that fails is logged once with its name and the rest carry on; a required one stops what already
 * started (in reverse) and rejects with a ComponentStartError. Stop never throws.
 */
export class Lifecycle {
  private readonly started: Component[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly components: readonly Component[],
    private readonly options: LifecycleOptions,
  ) {}

  async start(): Promise<void> {
    const { log } = this.options;
    const deadlineMs = this.options.startDeadlineMs ?? DEFAULT_START_DEADLINE_MS;
    for (const component of this.components) {
      const outcome = await within(() => component.start(), deadlineMs);
      if (outcome.kind === 'done') {
        this.started.push(component);
        continue;
      }
      if (component.optional) {
        // It may still finish (a slow device): it is stopped with the others either way.
        this.started.push(component);
        if (outcome.kind === 'deadline')
          log.warn(
            { component: component.name },
            `${component.name} is still starting after ${deadlineMs / 1000} s; the hub carries on without waiting`,
          );
        else log.error({ err: outcome.err, component: component.name }, `${component.name} failed to start; the hub carries on without it`);
        continue;
      }
      // A half-started required component may hold files or sockets: it is stopped too, then the rest in reverse.
      this.started.push(component);
      await this.stop();
      if (outcome.kind === 'failed') {
        log.error({ err: outcome.err, component: component.name }, `${component.name} failed to start; stopping the hub`);
        throw outcome.err;
      }
      throw new ComponentStartError(component.name, new Error(`did not start within ${deadlineMs / 1000} s`));
    }
  }

  /** Stops every started component, last started first; safe to call more than once. */
  stop(): Promise<void> {
    if (this.stopping === undefined) this.stopping = this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    const { log } = this.options;
    const deadlineMs = this.options.stopDeadlineMs ?? DEFAULT_STOP_DEADLINE_MS;
    for (const component of this.started.reverse()) {
      const outcome = await within(() => component.stop(), deadlineMs);
      if (outcome.kind === 'failed') log.error({ err: outcome.err, component: component.name }, `${component.name} failed to stop cleanly`);
      else if (outcome.kind === 'deadline')
        log.error({ component: component.name }, `${component.name} did not stop within ${deadlineMs / 1000} s; carrying on`);
    }
    this.started.length = 0;
  }
}
