import { parseResult, type RenderInfo, type RenderOptions, type TemplateDispatch, type TemplateEngine } from '../../template/index.js';
import type { WsLimits } from './limits.js';
import { eventHead, idTail } from './messages.js';
import type { Outbox } from './outbox.js';
import type { Subscription } from './subscriptions.js';

export interface TemplateSubscriptionOptions {
  /** The hub's engine bound to this subscription's source (within its connection's): its renders are budgeted so. */
  readonly engine: TemplateEngine;
  readonly template: string;
  readonly render: RenderOptions;
  /** Render failures as `{"error": ..., "level": "ERROR"}` events instead of nothing. */
  readonly reportErrors: boolean;
  /** The connection's template listeners, indexed by what each last render read. */
  readonly changes: TemplateDispatch;
  readonly id: number;
  readonly outbox: Outbox;
  readonly limits: WsLimits;
  /** Called once when the subscription stops (the per-connection count). */
  readonly onStop: () => void;
}

/** How the first render went, for the command's answer. */
export type FirstRender =
  | { readonly ok: true }
  | { readonly ok: false; readonly kind: string; readonly message: string; readonly limitMs: number | undefined };

/**
 * `render_template` as a subscription: rendered once, then again when an entity it read changes (or, for
 * `now()`, at each minute), and an event is sent only when the result changed. Renders are coalesced:
 * a template over single entities renders at most every `templateEntityIntervalMs`, one over a domain or
 * all states every `templateWideIntervalMs`, however fast the entities change. Every render waits for room in
 * the template budget (its connection's share of the loop); one that the budget suspended renders again when
 * an entity it read changes.
 */
export class TemplateSubscription implements Subscription {
  private readonly tail: Buffer;
  private info: RenderInfo | undefined;
  private lastSent: string | undefined;
  private lastRenderAt = 0;
  private pending: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;
  private stopped = false;
  private first: (() => void) | undefined;

  constructor(private readonly o: TemplateSubscriptionOptions) {
    this.tail = idTail(o.id);
  }

  /**
   * The first render, with the client's time limit, once the budget has room (at once when it has). `answer`
   * hears how it went, to answer the command: the command's result goes first and the first render's event
   * after it, as in Home Assistant; a failure (unless errors are reported as events) is the answer instead.
   */
  start(limitMs: number | undefined, answer: (first: FirstRender) => void): void {
    const first = (): void => {
      this.first = undefined;
      if (this.stopped) return;
      const outcome = this.o.engine.tryRender(this.o.template, { ...this.o.render, limitMs });
      this.info = outcome.info;
      this.o.changes.track(this.onStateChanged, outcome.info);
      this.lastRenderAt = performance.now();
      if (!outcome.ok && !this.o.reportErrors) {
        const { error } = outcome;
        answer({ ok: false, kind: error.templateKind, message: error.message, limitMs: error.limitMs });
        return;
      }
      answer({ ok: true });
      if (outcome.ok) this.sendResult(outcome.text);
      else this.sendError(outcome.error.message);
      this.scheduleTick();
    };
    this.first = first;
    this.o.engine.schedule(first);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.o.changes.untrack(this.onStateChanged);
    if (this.first !== undefined) this.o.engine.cancel(this.first);
    this.o.engine.cancel(this.rerender);
    if (this.pending !== undefined) clearTimeout(this.pending);
    if (this.tick !== undefined) clearTimeout(this.tick);
    this.o.onStop();
  }

  private readonly onStateChanged = (): void => {
    const info = this.info;
    // Called only for changes of what the last render read (the dispatch is indexed by it): its input changed.
    if (info === undefined || this.pending !== undefined || this.stopped) return;
    this.o.engine.resume();
    const wide = info.all || info.domains.size > 0;
    const interval = wide ? this.o.limits.templateWideIntervalMs : this.o.limits.templateEntityIntervalMs;
    const wait = Math.max(0, this.lastRenderAt + interval - performance.now());
    // Always later, never inside the bus dispatch: a burst of changes in one turn renders once.
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.o.engine.schedule(this.rerender);
    }, wait);
  };

  private readonly rerender = (): void => {
    if (this.stopped) return;
    const outcome = this.o.engine.tryRender(this.o.template, this.o.render);
    this.info = outcome.info;
    this.o.changes.track(this.onStateChanged, outcome.info);
    this.lastRenderAt = performance.now();
    if (outcome.ok) this.sendResult(outcome.text);
    else if (this.o.reportErrors) this.sendError(outcome.error.message);
    this.scheduleTick();
  };

  /** A template that read the time renders again at the next boundary (each minute in Home Assistant). */
  private scheduleTick(): void {
    if (this.stopped || this.tick !== undefined || this.info?.time !== true) return;
    const period = this.o.limits.templateTimeTickMs;
    this.tick = setTimeout(
      () => {
        this.tick = undefined;
        // The time is its input, and it changed.
        this.o.engine.resume();
        this.o.engine.schedule(this.rerender);
      },
      period - (Date.now() % period),
    );
  }

  private sendResult(text: string): void {
    const info = this.info;
    const body = `{"result":${JSON.stringify(parseResult(text))},"listeners":${JSON.stringify(info?.listeners() ?? {})}}`;
    this.send(body);
  }

  private sendError(message: string): void {
    this.send(JSON.stringify({ error: message, level: 'ERROR' }));
  }

  /** Queues the event when it differs from the last one sent; its JSON is built once here. */
  private send(body: string): void {
    if (body === this.lastSent) return;
    this.lastSent = body;
    this.o.outbox.push(eventHead(body), this.tail);
  }
}
