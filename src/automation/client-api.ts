import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { Context } from '../core/context.js';
import { HubError, isHubError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { TemplateDispatch, type TemplateEngine } from '../template/index.js';
import type { ConditionEnv } from './conditions.js';
import type { RunPolicy } from './model.js';
import { parseActions } from './parse-actions.js';
import { parseConditions } from './parse-conditions.js';
import { parseTriggers } from './parse-triggers.js';
import { Halt } from './run.js';
import { type RunResult, ScriptRunner } from './runner.js';
import { StateDispatch } from './state-dispatch.js';
import { attachTriggers, type MqttTriggerSource, type TriggerEnv } from './triggers.js';

/** Owner of the bus listeners of `execute_script` runs (their wait_for_trigger); removed when automations stop. */
export const CLIENT_RUN_OWNER = 'websocket_api';
/** Home Assistant names these runs `websocket_api script` in its log lines. */
const RUN_NAME = 'websocket_api script';
/** Each command is a script of its own: one run, never refused. */
const POLICY: RunPolicy = { mode: 'parallel', max: 1, maxExceeded: 'silent' };
/** Runs going at once over all connections: a client looping on long delays cannot pile up timers without end. */
export const MAX_CLIENT_RUNS = 256;
/** Problems shown in one message; the rest are counted. */
const SHOWN_ISSUES = 5;

export type ClientPart = 'triggers' | 'conditions' | 'actions';

type Parser = (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]) => unknown[];
const PARSERS: Record<ClientPart, Parser> = { triggers: parseTriggers, conditions: parseConditions, actions: parseActions };

export interface ClientAutomationOptions extends ConditionEnv {
  readonly log: Logger;
  readonly mqtt?: MqttTriggerSource;
}

/** voluptuous' way of naming where a problem is: `@ data['trigger'][0]['entity_id']`. */
function pathText(path: ConfigPath): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `['${p}']`)).join('');
}

/** The problems of one part as one message, each naming its key. */
function describeProblems(issues: readonly ConfigIssue[]): string {
  const shown = issues.slice(0, SHOWN_ISSUES).map((i) => `${i.message} @ data${pathText(i.path)}`);
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/** Parses with the automations' parser; throws `invalid_format` naming the keys when anything is wrong. */
function parseOrThrow<T>(
  parse: (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]) => T[],
  key: string,
  value: JsonValue,
): T[] {
  const issues: ConfigIssue[] = [];
  const parsed = parse(value, [key], issues);
  if (issues.length > 0) throw new HubError('invalid_format', describeProblems(issues));
  return parsed;
}

/** A failed run as the client sees it: the error an action raised, or the run's own message. */
function failure(result: RunResult): HubError {
  const cause = result.cause;
  if (isHubError(cause)) {
    // Inside a script, a missing service or entity is an error of the script (Home Assistant's HomeAssistantError).
    const notFound = cause.kind === 'service_not_found' || cause.kind === 'entity_not_found' || cause.kind === 'not_found';
    return notFound ? new HubError('hub_error', cause.message) : cause;
  }
  if (cause instanceof Halt) return new HubError('hub_error', cause.message);
  if (cause !== undefined) return new HubError('internal', 'Unknown error');
  return new HubError('hub_error', result.error ?? 'The script failed');
}

/**
 * What WebSocket clients reach of the automation language: `subscribe_trigger` (triggers attached for a
 * connection), `execute_script` (a sequence run once) and `validate_config`, all through the parsers and the
 * trigger and action code automations use. Implements the API layer's AutomationApi.
 */
export class ClientAutomation {
  private readonly runners = new Set<ScriptRunner>();
  private states: StateDispatch | undefined;
  private templateChanges: TemplateDispatch | undefined;
  private runTemplates: TemplateEngine | undefined;

  constructor(private readonly o: ClientAutomationOptions) {}

  subscribeTrigger(
    config: JsonValue,
    variables: JsonObject | undefined,
    owner: string,
    fire: (variablesJson: string, context: Context | null) => void,
  ): () => void {
    const triggers = parseOrThrow(parseTriggers, 'trigger', config);
    // One dispatch per subscription, under the connection's owner: unsubscribing or closing removes it whole.
    const onError = (err: unknown) => this.o.log.error({ err }, 'subscribe_trigger: trigger failed');
    const states = new StateDispatch(this.o.core.bus, owner, onError);
    const templateChanges = new TemplateDispatch(this.o.core.bus, owner, onError);
    const templates = this.o.templates.forSource({
      name: `subscribe_trigger of ${owner}`,
      until: 'it is subscribed again',
      onWarning: (message) => this.o.log.warn({ connection: owner }, message),
    });
    const env: TriggerEnv = { ...this.base(), templates, states, templateChanges, owner, starting: false };
    // States serialize through their toJSON, as Home Assistant's encoder writes them.
    const detach = attachTriggers(env, triggers, (info, context) => fire(JSON.stringify({ trigger: info }), context), {
      variables: variables ?? {},
      name: 'websocket_api',
    });
    return () => {
      detach();
      states.close();
      templateChanges.close();
    };
  }

  async executeScript(sequence: JsonValue, variables: JsonObject | undefined, context: Context): Promise<JsonObject | null> {
    const actions = parseOrThrow(parseActions, 'sequence', sequence);
    if (this.runners.size >= MAX_CLIENT_RUNS) {
      throw new HubError('not_allowed', `At most ${MAX_CLIENT_RUNS} execute_script runs may go at once; wait for some to finish.`);
    }
    const onError = (err: unknown) => this.o.log.error({ err }, `${RUN_NAME}: wait failed`);
    this.states ??= new StateDispatch(this.o.core.bus, CLIENT_RUN_OWNER, onError);
    this.templateChanges ??= new TemplateDispatch(this.o.core.bus, CLIENT_RUN_OWNER, onError);
    // Every run is another sequence: not suspended, but all of them together count as one source.
    this.runTemplates ??= this.o.templates.forSource({ name: 'execute_script', suspends: false });
    const env: TriggerEnv = {
      ...this.base(),
      templates: this.runTemplates,
      states: this.states,
      templateChanges: this.templateChanges,
      owner: CLIENT_RUN_OWNER,
      starting: false,
    };
    const runner = new ScriptRunner(env, RUN_NAME, POLICY, actions, () => {});
    this.runners.add(runner);
    try {
      const run = runner.start({
        variables: { ...variables, context: { id: context.id, parent_id: context.parent_id, user_id: context.user_id } },
        context,
      });
      const result = run === undefined ? undefined : await run;
      if (result === undefined || result.outcome === 'aborted') throw new HubError('hub_error', 'The script was stopped');
      if (result.outcome === 'failed') throw failure(result);
      return result.response;
    } finally {
      this.runners.delete(runner);
    }
  }

  validate(part: ClientPart, value: JsonValue, key: string): string | null {
    const issues: ConfigIssue[] = [];
    PARSERS[part](value, [key], issues);
    return issues.length === 0 ? null : describeProblems(issues);
  }

  /** Stops the runs still going (the hub stops); their commands answer that the script was stopped. */
  stop(): void {
    for (const runner of this.runners) runner.stop();
    this.runners.clear();
    this.states?.close();
    this.states = undefined;
    this.templateChanges?.close();
    this.templateChanges = undefined;
  }

  private base(): ConditionEnv & { log: Logger; mqtt?: MqttTriggerSource } {
    const { core, timeZone, templates, location, log, mqtt } = this.o;
    return { core, timeZone, templates, location, log, mqtt };
  }
}
