// Home Assistant's WebSocket commands for signed-in apps and tokens (homeassistant/components/auth/__init__.py).
import { HubError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { command, userOf } from './command.js';
import type { Command } from './connection.js';
import { bool, optional, positiveInt, required, str, strMaxLength } from './schema.js';

/** How long a signed path may live: Home Assistant's default is 30 s; a day is the most hearth signs for. */
const MAX_SIGN_EXPIRES_S = 24 * 60 * 60;

/**
 * `auth/refresh_tokens`: the user's signed-in apps (refresh tokens, type `normal`) and long-lived access tokens, in
 * Home Assistant's shape; `is_current` marks the one this connection authenticated with.
 */
const refreshTokens = command({}, (conn, _msg, id) => {
  const user = userOf(conn);
  const auth = conn.env.ctx.auth;
  const current = conn.principal?.tokenId;
  const list: JsonObject[] = auth.refreshTokens.list(user.id).map((t) => ({
    id: t.id,
    auth_provider_type: 'homeassistant',
    client_icon: t.clientIcon,
    client_id: t.clientId,
    client_name: t.clientName,
    created_at: t.createdAt,
    expire_at: t.expireAt,
    is_current: t.id === current,
    last_used_at: t.lastUsedAt,
    last_used_ip: t.lastUsedIp,
    type: 'normal',
  }));
  for (const t of auth.listTokens(user.id)) {
    list.push({
      id: t.id,
      auth_provider_type: null,
      client_icon: null,
      client_id: null,
      client_name: t.name,
      created_at: t.createdAt,
      expire_at: null,
      is_current: t.id === current,
      last_used_at: t.lastUsedAt,
      last_used_ip: null,
      type: 'long_lived_access_token',
    });
  }
  conn.sendResult(id, JSON.stringify(list));
});

/** Deletes one of the user's own refresh or long-lived tokens by id (signs the app out, closes its connections). */
async function deleteOwnToken(conn: Parameters<typeof userOf>[0], tokenId: string): Promise<boolean> {
  const user = userOf(conn);
  const auth = conn.env.ctx.auth;
  const refresh = auth.refreshTokens.get(tokenId);
  if (refresh !== undefined && refresh.userId === user.id) return auth.refreshTokens.remove(tokenId);
  if (auth.listTokens(user.id).some((t) => t.id === tokenId)) return auth.revokeToken(tokenId);
  return false;
}

const deleteRefreshToken = command({ refresh_token_id: required(strMaxLength(200)) }, async (conn, msg, id) => {
  // Answer first: deleting the connection's own token closes it.
  const exists =
    conn.env.ctx.auth.refreshTokens.get(msg.refresh_token_id)?.userId === userOf(conn).id ||
    conn.env.ctx.auth.listTokens(userOf(conn).id).some((t) => t.id === msg.refresh_token_id);
  if (!exists) throw new HubError('invalid_token_id', 'Received invalid token');
  conn.sendResult(id, 'null');
  await deleteOwnToken(conn, msg.refresh_token_id);
});

/** `auth/delete_all_refresh_tokens`: signs out every app of the user (but the current one unless asked), Home Assistant's shape. */
const deleteAllRefreshTokens = command({ token_type: optional(str), delete_current_token: optional(bool) }, async (conn, msg, id) => {
  const user = userOf(conn);
  const auth = conn.env.ctx.auth;
  const current = conn.principal?.tokenId;
  const type = msg.token_type ?? 'normal';
  const ids: string[] = [];
  if (type === 'normal') ids.push(...auth.refreshTokens.list(user.id).map((t) => t.id));
  else if (type === 'long_lived_access_token') ids.push(...auth.listTokens(user.id).map((t) => t.id));
  else throw new HubError('invalid_format', `token_type must be normal or long_lived_access_token. Got ${JSON.stringify(type)}`);
  const deleteCurrent = msg.delete_current_token === true;
  conn.sendResult(id, 'null');
  for (const tokenId of ids) if (tokenId !== current || deleteCurrent) await deleteOwnToken(conn, tokenId);
});

/** `auth/sign_path`: a path with `authSig`, usable without a token for `expires` seconds (camera and media URLs). */
const signPath = command({ path: required(strMaxLength(2048)), expires: optional(positiveInt) }, (conn, msg, id) => {
  const user = userOf(conn);
  if (!msg.path.startsWith('/')) throw new HubError('invalid_format', `path must start with /. Got ${JSON.stringify(msg.path)}`);
  const expires = Math.min(msg.expires ?? 30, MAX_SIGN_EXPIRES_S);
  const signed = conn.env.ctx.auth.signPath(msg.path, user.id, conn.principal?.tokenId ?? user.id, expires);
  const separator = msg.path.includes('?') ? '&' : '?';
  conn.sendResult(id, JSON.stringify({ path: `${msg.path}${separator}authSig=${signed}` }));
});

export const AUTH_COMMANDS: readonly (readonly [string, Command])[] = [
  ['auth/refresh_tokens', refreshTokens],
  ['auth/delete_refresh_token', deleteRefreshToken],
  ['auth/delete_all_refresh_tokens', deleteAllRefreshTokens],
  ['auth/sign_path', signPath],
];
