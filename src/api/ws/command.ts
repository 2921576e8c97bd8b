import type { User } from '../../auth/types.js';
import { HubError } from '../../core/errors.js';
import type { Command, Connection } from './connection.js';
import { type CommandSchema, type Validated, validateCommand } from './schema.js';

/** A command with its message schema; `run` gets the validated keys. */
export function command<S extends CommandSchema>(
  schema: S,
  run: (conn: Connection, msg: Validated<S>, id: number) => void | Promise<void>,
): Command {
  return { run: (conn, message, id) => run(conn, validateCommand(message, schema), id) };
}

/** The authenticated user; commands run only after auth_ok, so it is always there. */
export function userOf(conn: Connection): User {
  const principal = conn.principal;
  if (principal === undefined) throw new HubError('unauthorized', 'Unauthorized');
  return principal.user;
}

/** The user, when an admin; Home Assistant's `require_admin`. */
export function requireAdmin(conn: Connection): User {
  const user = userOf(conn);
  if (!user.isAdmin) throw new HubError('unauthorized', 'Unauthorized');
  return user;
}

/** Refuses a new subscription when the connection already holds as many as its limit allows. */
export function checkRoomForSubscription(conn: Connection): void {
  const max = conn.env.limits.maxSubscriptions;
  if (conn.subscriptionCount >= max) {
    throw new HubError('not_allowed', `A connection may hold at most ${max} subscriptions; unsubscribe from some first.`);
  }
}
