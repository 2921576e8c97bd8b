import { HubError } from '../../core/errors.js';
import { pyNumber, TemplateDispatch } from '../../template/index.js';
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

function dispatchOf(conn: Connection): TemplateDispatch {
  let d = dispatches.get(conn);
  if (d === undefined) {
    d = new TemplateDispatch(conn.env.ctx.core.bus, conn.owner, (err) => conn.env.log.error({ err }, 'render_template failed'));
    dispatches.set(conn, d);
  }
  return d;
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
    const sub = new TemplateSubscription({
      engine: templateEngineOf(env.ctx),
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
    // The result (null) goes first and the first render's event after it, as in Home Assistant; the
    // render happens first so that a failure can still be the answer.
    const timeout = msg.timeout;
    // As in Home Assistant, a timeout of 0 is no timeout.
    const started = sub.start(timeout === undefined || timeout === 0 ? undefined : timeout * 1000);
    if (!started.ok) {
      sub.stop();
      const message =
        started.kind === 'TimeoutError' && timeout !== undefined
          ? `Exceeded maximum execution time of ${pyNumber(timeout)}s`
          : started.message;
      conn.sendError(id, 'template_error', message);
      return;
    }
    conn.addSubscription(id, sub);
    conn.sendResult(id, 'null');
    started.sendFirst();
  },
);

export const TEMPLATE_COMMANDS: readonly [string, Command][] = [['render_template', renderTemplate]];
