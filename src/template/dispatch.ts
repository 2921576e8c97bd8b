import type { EventBus, HubEvent } from '../core/event-bus.js';
import type { RenderInfo } from './render-info.js';

export type ChangeHandler = (event: HubEvent<'state_changed'>) => void;

/**
 * One `state_changed` listener for many templates that render again when what they read changes (template
 * triggers, render_template subscriptions), indexed by what each one's last render read: entities, domains,
 * everything. A change costs one lookup plus the templates that read it, not a call per template.
 */
export class TemplateDispatch {
  private readonly byEntity = new Map<string, Set<ChangeHandler>>();
  private readonly byDomain = new Map<string, Set<ChangeHandler>>();
  private readonly everything = new Set<ChangeHandler>();
  private readonly tracked = new Map<ChangeHandler, RenderInfo>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly owner: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** `handler` hears the changes `info` (its template's last render) says can change its output, and no others. */
  track(handler: ChangeHandler, info: RenderInfo): void {
    this.forget(handler);
    this.tracked.set(handler, info);
    if (info.all) this.everything.add(handler);
    for (const id of info.entities) add(this.byEntity, id, handler);
    for (const domain of info.domains) add(this.byDomain, domain, handler);
    this.unsubscribe ??= this.bus.on(this.owner, 'state_changed', (event) => this.dispatch(event));
  }

  /** Stops `handler`; with nothing left to dispatch, the bus listener goes too (and comes back with the next track). */
  untrack(handler: ChangeHandler): void {
    this.forget(handler);
    if (this.tracked.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private forget(handler: ChangeHandler): void {
    const info = this.tracked.get(handler);
    if (info === undefined) return;
    this.tracked.delete(handler);
    this.everything.delete(handler);
    for (const id of info.entities) remove(this.byEntity, id, handler);
    for (const domain of info.domains) remove(this.byDomain, domain, handler);
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.tracked.clear();
    this.byEntity.clear();
    this.byDomain.clear();
    this.everything.clear();
  }

  private dispatch(event: HubEvent<'state_changed'>): void {
    const id = event.data.entity_id;
    const single = this.byEntity.get(id);
    const domain = this.byDomain.size === 0 ? undefined : this.byDomain.get(id.slice(0, id.indexOf('.')));
    if (domain === undefined && this.everything.size === 0) {
      if (single === undefined) return;
      // The common case, one template reading this entity, without allocating.
      if (single.size === 1) {
        this.call(single.values().next().value as ChangeHandler, event);
        return;
      }
    }
    // A snapshot, each handler once: handlers re-track (or stop others) while they run.
    const handlers = new Set<ChangeHandler>(single);
    for (const h of domain ?? []) handlers.add(h);
    for (const h of this.everything) handlers.add(h);
    for (const h of handlers) if (this.tracked.has(h)) this.call(h, event);
  }

  private call(handler: ChangeHandler, event: HubEvent<'state_changed'>): void {
    try {
      handler(event);
    } catch (err) {
      this.onError(err);
    }
  }
}

function add(map: Map<string, Set<ChangeHandler>>, key: string, handler: ChangeHandler): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(handler);
}

function remove(map: Map<string, Set<ChangeHandler>>, key: string, handler: ChangeHandler): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(handler);
  if (set.size === 0) map.delete(key);
}
