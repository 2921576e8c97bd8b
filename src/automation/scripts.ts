import type { Context } from '../core/context.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec } from '../core/fields.js';
import type { JsonObject } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { addScript, type ScriptHandle, type ScriptPlatform } from '../domains/script.js';
import type { ScriptDefinition } from './model.js';
import { type RunResult, ScriptRunner } from './runner.js';
import { errorText, liveThis, renderVariables } from './templating.js';
import type { TriggerEnv } from './triggers.js';

export const SCRIPT_OWNER = 'script';

/** One configured script: its entity, its `script.<object_id>` service and the runner of its sequence. */
class Script implements ScriptPlatform {
  private readonly handle: ScriptHandle;
  private readonly runner: ScriptRunner;
  /** The extension's env with the script's own engine: all its templates are one source of the template budget. */
  private readonly env: TriggerEnv;

  constructor(
    env: TriggerEnv,
    private readonly def: ScriptDefinition,
  ) {
    const entityId = `script.${def.objectId}`;
    const templates = env.templates.forSource({
      name: entityId,
      until: 'the script is reloaded (script.reload)',
      onWarning: (message) => env.log.warn({ script: entityId }, message),
    });
    this.env = { ...env, templates };
    this.handle = addScript(env.core, {
      entityId,
      owner: SCRIPT_OWNER,
      name: def.alias,
      icon: def.icon,
      uniqueId: def.objectId,
      platform: this,
    });
    this.runner = new ScriptRunner(this.env, entityId, def, def.sequence, (context) => {
      if (context !== undefined) this.handle.entity.useContext(context);
      this.write();
    });
  }

  get entityId(): string {
    return this.handle.entity.id;
  }

  begin(): void {
    this.write();
    const { core } = this.env;
    const fields: Record<string, FieldSpec> = {};
    for (const [key, f] of Object.entries(this.def.fields)) {
      setOwn(fields, key, { kind: 'any', ...f });
    }
    core.services.register(SCRIPT_OWNER, {
      domain: 'script',
      service: this.def.objectId,
      name: this.def.alias,
      description: this.def.description ?? '',
      // The data is the script's variables; fields describe them for clients, undeclared keys pass too.
      schema: { fields, allowExtra: true },
      response: 'optional',
      handler: async (call) => {
        const result = await this.run(call.data, call.context);
        if (result?.outcome === 'failed') throw new HubError('hub_error', `${this.entityId}: ${result.error ?? 'failed'}`);
        return result?.response ?? {};
      },
    });
  }

  /** script.turn_on: starts a run and returns without waiting for it (Home Assistant's wait=False). */
  start(variables: JsonObject, context: Context): void {
    void this.launch(variables, context);
  }

  /** script.<object_id>: runs and waits; undefined when the mode refused the run. */
  run(variables: JsonObject, context: Context): Promise<RunResult | undefined> {
    if (this.runner.isRecursive(context)) {
      this.env.log.warn(
        { script: this.entityId },
        `${this.entityId}: Disallowed recursion detected, ${this.entityId} tried to start itself while running in ${this.def.mode} mode`,
      );
      return Promise.resolve(undefined);
    }
    return this.launch(variables, context);
  }

  stop(): void {
    this.runner.stop();
  }

  end(): void {
    this.runner.stop();
    this.env.core.services.remove('script', this.def.objectId);
    this.env.core.entities.remove(this.entityId);
  }

  private launch(variables: JsonObject, context: Context): Promise<RunResult | undefined> {
    const { core, templates, traces } = this.env;
    const { def } = this;
    const trace = traces?.begin({ domain: 'script', itemId: def.objectId, context, config: def.config, storedTraces: def.storedTraces });
    const defaults: Record<string, unknown> = { this: liveThis(core, this.entityId) };
    // A field left out takes its default, as Home Assistant's script fields do.
    for (const [key, field] of Object.entries(this.def.fields)) if (field.default !== undefined) setOwn(defaults, key, field.default);
    // A spread keeps a caller's `__proto__` variable a variable (Object.assign would make it the prototype).
    const given = { ...defaults, ...variables, context: { id: context.id, parent_id: context.parent_id, user_id: context.user_id } };
    let vars: Record<string, unknown>;
    try {
      vars = renderVariables(templates, this.def.variables, given, this.entityId, true);
    } catch (err) {
      const message = `Error rendering variables: ${errorText(err)}`;
      this.runner.logOnce(message, 'error', `${this.entityId}: %s`, message);
      trace?.finish('error', message);
      return Promise.resolve({ outcome: 'failed', response: null, error: message });
    }
    core.bus.fire('script_started', { name: this.def.alias, entity_id: this.entityId }, context);
    return this.runner.start({ variables: vars, context, trace }) ?? Promise.resolve(undefined);
  }

  private write(): void {
    const { mode, max } = this.def;
    this.handle.report({
      lastTriggeredUs: this.runner.lastTriggeredUs,
      mode,
      current: this.runner.current,
      max: mode === 'queued' || mode === 'parallel' ? max : undefined,
    });
  }
}

/** The scripts of one configuration; replaced as a whole by `script.reload`. */
export class ScriptSet {
  private readonly items: Script[] = [];

  constructor(private readonly env: TriggerEnv) {}

  start(definitions: readonly ScriptDefinition[]): void {
    for (const def of definitions) {
      try {
        const script = new Script(this.env, def);
        this.items.push(script);
        script.begin();
      } catch (err) {
        this.env.log.error({ err, script: def.objectId }, `script.${def.objectId} could not be set up`);
      }
    }
  }

  stop(): void {
    for (const script of this.items) script.end();
    this.items.length = 0;
  }
}
