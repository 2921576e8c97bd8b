import { checkConditions } from '../automation/conditions.js';
import { TimeZone } from '../automation/local-time.js';
import type { ScriptRunner } from '../automation/runner.js';
import { StateDispatch } from '../automation/state-dispatch.js';
import { errorText, renderVariables } from '../automation/templating.js';
import { attachTriggers, type TriggerEnv, triggerVariable } from '../automation/triggers.js';
import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import { reloadSections } from '../integration/reload.js';
import { type ChangeHandler, TemplateDispatch, TemplateEngine } from '../template/index.js';
import type { TemplateBlock, TemplateEntityDefinition } from './config.js';
import { TEMPLATE_OWNER, TemplateRenderer } from './entity.js';
import { collectBlocks, legacyItemOf, TEMPLATE_SECTIONS } from './legacy.js';
import { addTemplateEntity, type TemplateItem } from './platforms.js';

export interface TemplateEntitiesOptions {
  readonly core: Core;
  /** The `template:` section as read at load. */
  readonly blocks: readonly TemplateBlock[];
  /** The hub's time zone (IANA name). */
  readonly timeZone: string;
  readonly log: Logger;
  /** The hub's template engine (shared with the API and automations). */
  readonly templates?: TemplateEngine;
  /** Reads the configuration again for `template.reload`; without it there is no such service. */
  readonly reloadConfig?: () => Promise<HubConfig>;
}

/** Home Assistant re-renders a template that read the time at each minute. */
const TIME_TICK_MS = 60_000;

/**
 * The `template:` section's entities (sensor, binary_sensor, switch, button, number, select, cover, light, fan), as Home Assistant's template integration makes
 * them. State-based entities render at start and again when an entity their last render read changes: changes are
 * gathered and rendered once per event-loop turn, so a burst renders each entity once. Trigger-based ones render when
 * their block's triggers fire, with `trigger` and the block's variables.
 */
export class TemplateEntities implements Component {
  readonly name = 'template entities';
  readonly optional = true;
  readonly owner = TEMPLATE_OWNER;
  private readonly items: TemplateItem[] = [];
  private readonly dirty = new Set<TemplateItem>();
  /** Each state-based entity's handler for a change of what its last render read (TemplateDispatch). */
  private readonly onChange = new Map<TemplateItem, ChangeHandler>();
  /** Each state-based entity's render, as the template budget schedules it (one job per entity: queued once). */
  private readonly renderJobs = new Map<TemplateItem, () => void>();
  /** State-based entities not rendered yet since start, and what start() waits on. */
  private readonly firstPending = new Set<TemplateItem>();
  private firstDone: (() => void) | undefined;
  private readonly detach: (() => void)[] = [];
  private readonly runners: ScriptRunner[] = [];
  private flush: NodeJS.Immediate | undefined;
  private tick: NodeJS.Timeout | undefined;
  private readonly templates: TemplateEngine;
  private env: TriggerEnv;
  private blocks: readonly TemplateBlock[];

  constructor(private readonly o: TemplateEntitiesOptions) {
    this.templates =
      o.templates ?? new TemplateEngine({ core: o.core, timeZone: TimeZone.of(o.timeZone) === undefined ? 'UTC' : o.timeZone });
    this.blocks = o.blocks;
    this.env = this.makeEnv();
  }

  /** The triggers' environment: made again for each start, since stopping removes its listeners. */
  private makeEnv(): TriggerEnv {
    const o = this.o;
    const zone = TimeZone.of(o.timeZone);
    return {
      core: o.core,
      log: o.log,
      timeZone: zone ?? TimeZone.UTC,
      templates: this.templates,
      states: new StateDispatch(o.core.bus, TEMPLATE_OWNER, (err) => o.log.error({ err }, 'template trigger failed')),
      templateChanges: new TemplateDispatch(o.core.bus, TEMPLATE_OWNER, (err) => o.log.error({ err }, 'template trigger failed')),
      owner: TEMPLATE_OWNER,
      starting: false,
    };
  }

  async start(): Promise<void> {
    const reloadConfig = this.o.reloadConfig;
    if (reloadConfig !== undefined) {
      this.o.core.services.register(TEMPLATE_OWNER, {
        domain: 'template',
        service: 'reload',
        name: 'Reload',
        description: 'Reloads template entities from the YAML-configuration.',
        schema: { fields: {} },
        handler: async () => {
          const sections = await reloadSections({
            domain: 'template',
            sections: TEMPLATE_SECTIONS,
            itemOf: legacyItemOf,
            reloadConfig,
            core: this.o.core,
            log: this.o.log,
          });
          const blocks = collectBlocks(sections, this.o.log);
          this.teardown();
          this.blocks = blocks;
          await this.startEntities();
        },
      });
    }
    await this.startEntities();
  }

  private async startEntities(): Promise<void> {
    this.env = this.makeEnv();
    for (const block of this.blocks) this.startBlock(block);
    this.detach.push(() => this.env.templateChanges.close());
    // The first renders, as the template budget lets them run (several turns when they are many or slow);
    // started means rendered (or stopped before).
    await new Promise<void>((resolve) => {
      this.firstDone = resolve;
      for (const item of this.items) if (!item.triggered) this.firstPending.add(item);
      if (this.firstPending.size === 0) resolve();
      for (const item of [...this.firstPending]) this.scheduleRender(item);
    });
    this.scheduleTick();
    this.o.log.info({ entities: this.items.length }, 'template entities started');
  }

  async stop(): Promise<void> {
    this.o.core.services.removeOwner(TEMPLATE_OWNER);
    this.teardown();
  }

  /** Removes the entities and everything they listen to (stop, and a reload before it starts them again). */
  private teardown(): void {
    for (const d of this.detach) d();
    for (const runner of this.runners) runner.stop();
    this.runners.length = 0;
    for (const item of this.items) {
      item.writer.cancel();
      const job = this.renderJobs.get(item);
      if (job !== undefined) item.renderer.engine.cancel(job);
    }
    this.renderJobs.clear();
    this.firstPending.clear();
    this.firstDone?.();
    if (this.flush !== undefined) clearImmediate(this.flush);
    clearTimeout(this.tick);
    this.flush = undefined;
    this.tick = undefined;
    this.dirty.clear();
    this.items.length = 0;
    this.onChange.clear();
    this.detach.length = 0;
    this.o.core.bus.removeOwner(TEMPLATE_OWNER);
    this.o.core.entities.removeOwner(TEMPLATE_OWNER);
  }

  private startBlock(block: TemplateBlock): void {
    const items = block.entities.map((def) => this.addEntity(def, block.triggers !== undefined));
    if (block.triggers === undefined) return;
    const name = 'template';
    // The block's triggers, variables and conditions are one source of the template budget; each entity another.
    const env: TriggerEnv = {
      ...this.env,
      templates: this.templates.forSource({
        name: `template block of ${items.map((i) => i.renderer.entityId).join(', ')}`,
        until: 'the hub restarts',
        onWarning: (message) => this.o.log.warn({}, message),
      }),
    };
    this.detach.push(
      attachTriggers(
        env,
        block.triggers,
        (info) => {
          const given = { trigger: triggerVariable(info) };
          let vars: Record<string, unknown>;
          try {
            vars = renderVariables(env.templates, block.variables, given, name, false);
          } catch (err) {
            this.o.log.error({}, 'template: Error rendering variables: %s', errorText(err));
            return;
          }
          const scope = { triggerId: info.id, variables: vars, name, onError: (m: string) => this.o.log.warn({}, 'template: %s', m) };
          if (!checkConditions(env, block.conditions, scope)) return;
          for (const item of items) {
            // A trigger firing is new input: a suspended entity renders again.
            item.renderer.engine.resume();
            item.writer.write(item.renderer.render(this.o.core, vars, item.optimistic()));
          }
        },
        { variables: {}, name },
      ),
    );
  }

  private addEntity(def: TemplateEntityDefinition, triggered: boolean): TemplateItem {
    const entityId = `${def.domain}.${def.objectId}`;
    const engine = this.templates.forSource({
      name: entityId,
      until: triggered ? 'its triggers fire again' : 'an entity its templates read changes',
      onWarning: (message) => this.o.log.warn({ entity_id: entityId }, message),
    });
    const renderer = new TemplateRenderer(engine, this.o.log, def, entityId);
    const context = {
      core: this.o.core,
      // Its actions (turn_on, set_value...) render as part of the entity's source.
      env: { ...this.env, templates: engine },
      runners: this.runners,
      render: (item: TemplateItem) => this.renderTemplateItem(item),
    };
    const item = addTemplateEntity(context, def, renderer, triggered);
    // Its own state changing is no reason to render again.
    this.onChange.set(item, (event) => {
      if (event.data.entity_id !== entityId) this.changed(item);
    });
    this.renderJobs.set(item, () => this.renderTemplateItem(item));
    this.items.push(item);
    return item;
  }

  private renderTemplateItem(item: TemplateItem): void {
    item.writer.write(item.renderer.render(this.o.core, {}, item.optimistic()));
    const onChange = this.onChange.get(item);
    if (!item.triggered && onChange !== undefined) this.env.templateChanges.track(onChange, item.renderer.info);
    if (this.firstPending.delete(item) && this.firstPending.size === 0) this.firstDone?.();
  }

  /**
   * Something a state-based entity's last render read changed (its input: a suspended entity resumes): it
   * renders again, once, on the next turn, or later when the template budget has no room then.
   */
  private changed(item: TemplateItem): void {
    item.renderer.engine.resume();
    this.dirty.add(item);
    if (this.flush !== undefined) return;
    this.flush = setImmediate(() => {
      this.flush = undefined;
      const items = [...this.dirty];
      this.dirty.clear();
      for (const item of items) this.scheduleRender(item);
      this.scheduleTick();
    });
  }

  private scheduleRender(item: TemplateItem): void {
    const job = this.renderJobs.get(item);
    if (job !== undefined) item.renderer.engine.schedule(job);
  }

  /** Templates that read the time render again at each minute. */
  private scheduleTick(): void {
    if (this.tick !== undefined || !this.items.some((i) => !i.triggered && i.renderer.info.time)) return;
    this.tick = setTimeout(
      () => {
        this.tick = undefined;
        for (const item of this.items) {
          if (item.triggered || !item.renderer.info.time) continue;
          // The time is its input, and it changed.
          item.renderer.engine.resume();
          this.scheduleRender(item);
        }
        this.scheduleTick();
      },
      TIME_TICK_MS - (Date.now() % TIME_TICK_MS),
    );
  }
}
