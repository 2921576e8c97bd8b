import type { Component } from '../core/component.js';
import { within } from '../core/lifecycle.js';
import { type BackoffOptions, backoffDelay } from '../util/backoff.js';
import { type Scheduler, scopedScheduler } from '../util/scheduler.js';
import { type AnyIntegration, type IntegrationContext, isTransient } from './integration.js';
import type { SetupProblems } from './problems.js';
import type { PartSetup } from './setup.js';

/** Retries of a part whose start failed with a cause that can pass: 5 s doubling to 5 min, as long as it takes. */
export const PART_RETRY: BackoffOptions = { initialMs: 5000, maxMs: 5 * 60_000 };
const STOP_DEADLINE_MS = 3000;

export interface PartOptions {
  readonly integration: AnyIntegration;
  readonly setup: PartSetup;
  /** The context of one attempt: a fresh scheduler scope each time, so a failed attempt's timers go with it. */
  readonly context: (scheduler: Scheduler) => IntegrationContext;
  /** The hub's timers: retries are scheduled on it. */
  readonly scheduler: Scheduler;
  readonly problems: SetupProblems;
  /** How long a start may take before the hub carries on without waiting for it. */
  readonly startTimeoutMs: number;
  readonly retry?: BackoffOptions;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One integration's part on the hub's lifecycle, started in isolation. A part whose configuration has problems is
 * named and left off; one whose create or start throws is taken down (what it registered under its owner key is
 * removed) and named, and when the cause can pass (isTransient) made afresh and started again with backoff. A start
 * past its deadline goes on in the background; the hub carries on, and a failure that comes later is handled the
 * same. Never throws: a broken part stops nothing else.
 */
export class IsolatedPart implements Component {
  readonly name: string;
  readonly optional = true;
  private part: Component | undefined;
  private scope: Scheduler | undefined;
  private failures = 0;
  private retryTimer: unknown;
  private stopped = false;

  constructor(private readonly o: PartOptions) {
    this.name = o.integration.name;
  }

  /** The part as made by the last attempt (running, or still starting); undefined when off. */
  get current(): Component | undefined {
    return this.part;
  }

  async start(): Promise<void> {
    const { broken, config } = this.o.setup;
    for (const { name, reason } of broken) this.o.problems.report(name, reason);
    if (config !== undefined) await this.attempt(config);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.o.scheduler.clear(this.retryTimer);
    const part = this.part;
    this.part = undefined;
    if (part !== undefined) await part.stop();
    this.scope?.stopAll();
  }

  private async attempt(config: NonNullable<PartSetup['config']>): Promise<void> {
    this.retryTimer = undefined;
    if (this.stopped) return;
    const { integration, problems, context } = this.o;
    const scope = scopedScheduler(this.o.scheduler);
    let part: Component | undefined;
    try {
      part = integration.create(context(scope), config, this.o.setup.broken);
    } catch (err) {
      problems.report(this.name, `could not be set up: ${errorText(err)}`, 'off', err);
      return;
    }
    if (part === undefined) return;
    this.part = part;
    this.scope = scope;
    const run = Promise.resolve().then(() => (part as Component).start());
    const outcome = await within(() => run, this.o.startTimeoutMs);
    if (outcome.kind === 'done') this.started(part);
    else if (outcome.kind === 'failed') await this.failed(part, outcome.err);
    else {
      const s = this.o.startTimeoutMs / 1000;
      problems.report(this.name, `no start within ${s} s; the hub carries on without waiting`, 'starting');
      run.then(
        () => this.started(part),
        (err: unknown) => this.failed(part, err),
      );
    }
  }

  private started(part: Component): void {
    if (part !== this.part) return;
    this.failures = 0;
    this.o.problems.clear(this.name);
  }

  /** Takes the part down (stop, then everything under its owner key) and retries it when the cause can pass. */
  private async failed(part: Component, err: unknown): Promise<void> {
    if (part !== this.part || this.stopped) return;
    this.part = undefined;
    const ctx = this.o.context(this.scope as Scheduler);
    await within(() => part.stop(), STOP_DEADLINE_MS);
    this.scope?.stopAll();
    ctx.core.removeOwner(part.owner ?? ctx.owner);
    this.failures++;
    if (!isTransient(err) || this.stopped) {
      this.o.problems.report(this.name, `failed to start: ${errorText(err)}`, 'off', err);
      return;
    }
    const delayMs = backoffDelay(this.failures, this.o.retry ?? PART_RETRY);
    this.o.problems.report(this.name, errorText(err), 'retrying', err);
    ctx.log.debug({ part: this.name, attempt: this.failures, delayMs }, `${this.name}: next try in ${delayMs / 1000} s`);
    const config = this.o.setup.config;
    if (config !== undefined) this.retryTimer = this.o.scheduler.timeout(() => void this.attempt(config), delayMs);
  }
}
