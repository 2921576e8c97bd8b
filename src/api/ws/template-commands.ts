import { HubError } from '../../core/errors.js';
import { pyNumber, type RenderSource, TemplateDispatch, type TemplateEngine } from '../../template/index.js';
import { templateEngineOf } from '../templates.js';
import { checkRoomForSubscription, command, requireAdmin } from './command.js';
import type { Command, Connection } from './connection.js';
import { bool, type Check, describe, entityIds, object, optional, required, str } from './schema.js';
import { TemplateSubscription } from './template-subscription.js';

/** vol.Coerce(float): a number, or a string that reads as one. */
const seconds: Check<number> = (value, key) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0)
    throw new HubError('invalid_format', `expected float for dictionary value @ data['${key}']. Got ${describe(value)}`);
  return n;
};

/** render_template subscriptions per connection (each re-renders on changes, so they are bounded apart). */
const templateCounts = new WeakMap<Connection, number>();
/** Each connection's subscriptions share one state_changed listener, under the connection's owner key. */
const dispatches = new WeakMap<Connection, TemplateDispatch>();
/** Each connection's share of the template budget, which its subscriptions' renders count against together. */
const budgets = new WeakMap<Connection, RenderSource>();

function dispatchOf(conn: Connection): TemplateDispatch {
  let d = dispatches.get(conn);
  if (d === undefined) {
    d = new TemplateDispatch(conn.env.ctx.core.bus, conn.owner, (err) => conn.env.log.error({ err }, 'render_template failed'));
    dispatches.set(conn, d);
  }
  return d;
}

function budgetOf(conn: Connection, engine: TemplateEngine): RenderSource {
  let source = budgets.get(conn);
  if (source === undefined) {
    // Not suspended itself (each subscription is); its share bounds a client that sends template after template.
    source = engine.budget.source({ name: `WebSocket connection ${conn.owner}`, suspends: false });
    budgets.set(conn, source);
  }
  return source;
}

/** A float as Python prints it (`60.0`, `0.05`): Home Assistant's message quotes vol.Coerce(float)'s value. */
function pyFloatText(n: number): string {
  const text = pyNumber(n);
  return Number.isInteger(n) ? `${text}.0` : text;
}

const renderTemplate = command(
  {
    template: required(str),
    // Home Assistant's deprecated hint of which entities to track; the render's own reads decide here.
    entity_ids: optional(entityIds(16384)),
    variables: optional(object),
    timeout: optional(seconds),
    strict: optional(bool),
    report_errors: optional(bool),
  },
  (conn, msg, id) => {
    requireAdmin(conn);
    checkRoomForSubscription(conn);
    const { env } = conn;
    const count = templateCounts.get(conn) ?? 0;
    if (count >= env.limits.maxTemplateSubscriptions) {
      throw new HubError(
        'not_allowed',
        `A connection may hold at most ${env.limits.maxTemplateSubscriptions} render_template subscriptions; unsubscribe from some first.`,
      );
    }
    const hub = templateEngineOf(env.ctx);
    const engine = hub.forSource({
      name: `render_template ${id} of ${conn.owner}`,
      parent: budgetOf(conn, hub),
      until: 'an entity it read changes',
      onWarning: (message) => env.log.warn({ connection: conn.owner, id }, message),
    });
    const sub = new TemplateSubscription({
      engine,
      template: msg.template,
      render: { name: 'render_template', variables: msg.variables, strict: msg.strict === true },
      reportErrors: msg.report_errors === true,
      changes: dispatchOf(conn),
      id,
      outbox: conn.outbox,
      limits: env.limits,
      onStop: () => templateCounts.set(conn, (templateCounts.get(conn) ?? 1) - 1),
    });
    templateCounts.set(conn, count + 1);
    // Held by the connection from now on: its end (or unsubscribe_events) stops it, also while its first render waits.
    conn.addSubscription(id, sub);
    const timeout = msg.timeout;
    // As in Home Assistant, a timeout of 0 is no timeout.
    const limitMs = timeout === undefined || timeout === 0 ? undefined : timeout * 1000;
    sub.start(limitMs, (first) => {
      if (first.ok) {
        conn.sendResult(id, 'null');
        return;
      }
      conn.removeSubscription(id);
      // Home Assistant's answer to a template that ran out of time, naming the limit that stopped it: the
      // client's timeout, or the hub's own limit for one render when that is lower.
      const stoppedAt = first.limitMs ?? limitMs;
      const message =
        first.kind === 'TimeoutError' && stoppedAt !== undefined
          ? `Exceeded maximum execution time of ${pyFloatText(limitMs !== undefined && limitMs <= stoppedAt ? (timeout as number) : stoppedAt / 1000)}s`
          : first.message;
      conn.sendError(id, 'template_error', message);
    });
  },
);

export const TEMPLATE_COMMANDS: readonly [string, Command][] = [['render_template', renderTemplate]];
