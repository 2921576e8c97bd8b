import { microsFromIso } from '../core/clock.js';
import { type Context, createContext } from '../core/context.js';
import type { KnownEvents } from '../core/event-bus.js';
import type { JsonObject } from '../core/json.js';
import { type AutomationHandle, type AutomationPlatform, addAutomation } from '../domains/automation.js';
import type { DesiredState } from '../domains/domain.js';
import type { RestorablePlatform } from '../restore/restore-policy.js';
import { checkConditions } from './conditions.js';
import type { AutomationDefinition } from './model.js';
import { ScriptRunner } from './runner.js';
import { errorText, liveThis, renderVariables } from './templating.js';
import { attachTriggers, type TriggerEnv, type TriggerInfo, triggerVariable } from './triggers.js';

export const AUTOMATION_OWNER = 'automation';

/** How long shutdown automations (`homeassistant: shutdown`) may run before the hub stops them. */
const SHUTDOWN_GRACE_MS = 3000;

/** One configured automation: its entity, its triggers while enabled, and the runner of its actions. */
class Automation implements AutomationPlatform, RestorablePlatform {
  private readonly handle: AutomationHandle;
  private readonly runner: ScriptRunner;
  /** The extension's env with the automation's own engine: all its templates are one source of the template budget. */
  private readonly env: TriggerEnv;
  private detach: (() => void) | undefined;
  private enabled = false;
  /** trigger_variables, rendered when the triggers attached (with `this`). */
  private triggerVariables: Record<string, unknown> = {};

  constructor(
    env: TriggerEnv,
    private readonly def: AutomationDefinition,
    private readonly onShutdownRun: (run: Promise<unknown>) => void,
  ) {
    const entityId = `automation.${def.objectId}`;
    // A reload makes the automation again, and with it a source that is not suspended.
    const templates = env.templates.forSource({
      name: entityId,
      until: 'the automation is reloaded (automation.reload)',
      onWarning: (message) => env.log.warn({ automation: entityId }, message),
    });
    this.env = { ...env, templates };
    this.handle = addAutomation(env.core, { entityId, owner: AUTOMATION_OWNER, name: def.alias, uniqueId: def.uniqueId, platform: this });
    this.runner = new ScriptRunner(this.env, entityId, def, def.actions, (context) => {
      if (context !== undefined) this.handle.entity.useContext(context);
      this.write();
    });
  }

  get entityId(): string {
    return this.handle.entity.id;
  }

  /** Writes the first state and, unless `initial_state: false`, attaches the triggers. */
  begin(): void {
    this.enabled = this.def.initialState;
    // Written before the triggers attach, so that their templates' `this` is the automation's state, never None.
    this.write();
    if (this.enabled) this.attach();
  }

  trigger(variables: JsonObject, skipCondition: boolean, context: Context): Promise<void> {
    return this.fire(undefined, context, variables, skipCondition);
  }

  turnOn(): void {
    if (this.enabled) return;
    this.enable();
    this.write();
  }

  turnOff(stopActions: boolean): void {
    if (!this.enabled) return;
    this.disable();
    if (stopActions) this.runner.stop();
    this.write();
  }

  /**
   * After a restart: on or off, and last_triggered, as they were. No service sets last_triggered, so the
   * automation restores itself rather than through automation.turn_on/turn_off.
   */
  restoreState(stored: DesiredState): void {
    const last = stored.attributes.last_triggered;
    const lastUs = typeof last === 'string' ? microsFromIso(last) : undefined;
    if (lastUs !== undefined && (this.runner.lastTriggeredUs ?? 0) < lastUs) this.runner.lastTriggeredUs = lastUs;
    if (stored.state === 'on' && !this.enabled) this.enable();
    else if (stored.state === 'off' && this.enabled) this.disable();
    this.write();
  }

  /** Detaches everything and stops the runs (the extension removes the entity). */
  end(): void {
    this.disable();
    this.runner.stop();
  }

  private enable(): void {
    this.enabled = true;
    this.attach();
  }

  private attach(): void {
    // Another env per attachment: `homeassistant: start` fires only for automations attached during start-up.
    const self = { this: liveThis(this.env.core, this.entityId) };
    try {
      this.triggerVariables = renderVariables(this.env.templates, this.def.triggerVariables, self, this.entityId, false);
    } catch (err) {
      const message = `Error rendering trigger variables: ${errorText(err)}`;
      this.runner.logOnce(message, 'error', `${this.entityId}: %s`, message);
      this.triggerVariables = self;
    }
    const scope = { variables: this.triggerVariables, name: this.entityId };
    this.detach = attachTriggers(
      this.env,
      this.def.triggers,
      (info, context) => {
        const run = this.fire(info, context, {}, false);
        if (info.description === 'Home Assistant stopping') this.onShutdownRun(run);
      },
      scope,
    );
  }

  private disable(): void {
    this.enabled = false;
    this.detach?.();
    this.detach = undefined;
  }

  /**
   * Home Assistant's async_trigger: a new context whose parent is the trigger's, the conditions (unless
   * skipped), then a run if the mode allows one, announced by `automation_triggered`.
   */
  private async fire(info: TriggerInfo | undefined, cause: Context | null, variables: JsonObject, skipCondition: boolean): Promise<void> {
    const { core, log } = this.env;
    // A trigger fires in whatever turn it happens; the variables and conditions render once the budget has room.
    const room = this.env.templates.ready();
    if (room !== undefined) await room;
    const context = createContext(core.clock.now(), null, cause?.id ?? null);
    const given = {
      ...this.triggerVariables,
      this: liveThis(core, this.entityId),
      ...variables,
      trigger: triggerVariable(info),
    };
    const { def } = this;
    // Automations without an `id:` are traced under their object id (Home Assistant traces only those with one).
    const trace = this.env.traces?.begin({
      domain: 'automation',
      itemId: def.uniqueId ?? def.objectId,
      context,
      config: def.config,
      storedTraces: def.storedTraces,
    });
    if (trace !== undefined) trace.trigger = info?.description ?? null;
    const triggerPath = info === undefined ? 'trigger' : `trigger/${info.idx}`;
    let vars: Record<string, unknown>;
    try {
      // The automation's variables, rendered after the trigger and before the conditions, as Home Assistant does.
      vars = renderVariables(this.env.templates, this.def.variables, given, this.entityId, true);
    } catch (err) {
      const message = `Error rendering variables: ${errorText(err)}`;
      this.runner.logOnce(message, 'error', `${this.entityId}: %s`, message);
      trace?.record(triggerPath, given, undefined, message);
      trace?.finish('error', message);
      return;
    }
    trace?.record(triggerPath, vars);
    const scope = {
      triggerId: info?.id,
      variables: vars,
      name: this.entityId,
      onError: (message: string) => this.runner.logOnce(message, 'warn', `${this.entityId}: %s`, message),
      trace,
    };
    if (!skipCondition && !checkConditions(this.env, this.def.conditions, scope, 'condition')) {
      log.debug({ automation: this.entityId }, `${this.entityId}: conditions not met, not running the actions`);
      trace?.finish('failed_conditions');
      return;
    }
    const data: KnownEvents['automation_triggered'] = { name: this.def.alias, entity_id: this.entityId };
    if (info?.description !== undefined) data.source = info.description;
    const run = this.runner.start({
      variables: vars,
      context,
      triggerId: info?.id,
      // Home Assistant leaves `source` out for a manual trigger.
      onAccepted: () => core.bus.fire('automation_triggered', data, context),
      trace,
    });
    if (run !== undefined) await run;
  }

  private write(): void {
    const { mode, max } = this.def;
    this.handle.report({
      on: this.enabled,
      lastTriggeredUs: this.runner.lastTriggeredUs,
      mode,
      current: this.runner.current,
      max: mode === 'queued' || mode === 'parallel' ? max : undefined,
      id: this.def.uniqueId,
    });
  }
}

/** The automations of one configuration; replaced as a whole by `automation.reload`. */
export class AutomationSet {
  private readonly items: Automation[] = [];
  private readonly shutdownRuns = new Set<Promise<unknown>>();

  constructor(private readonly env: TriggerEnv) {}

  start(definitions: readonly AutomationDefinition[]): void {
    for (const def of definitions) {
      try {
        const automation = new Automation(this.env, def, (run) => {
          this.shutdownRuns.add(run);
          void run.finally(() => this.shutdownRuns.delete(run));
        });
        this.items.push(automation);
        automation.begin();
      } catch (err) {
        this.env.log.error({ err, automation: def.objectId }, `automation.${def.objectId} could not be set up`);
      }
    }
  }

  /** Gives shutdown automations a bounded moment to finish. */
  async settleShutdownRuns(): Promise<void> {
    if (this.shutdownRuns.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
    });
    await Promise.race([Promise.allSettled([...this.shutdownRuns]), grace]);
    clearTimeout(timer);
  }

  stop(): void {
    for (const automation of this.items) {
      automation.end();
      this.env.core.entities.remove(automation.entityId);
    }
    this.items.length = 0;
  }
}
