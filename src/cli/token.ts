import { chown, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AUTH_FILE, AuthStore } from '../auth/store.js';
import type { TokenSummary } from '../auth/types.js';
import { stderrLogger } from './stderr-logger.js';
import {
  EXIT_FAILURE,
  EXIT_OK,
  optionalString,
  parseCommandArgs,
  printable,
  requireString,
  TOKEN_CREATE_USAGE,
  TOKEN_LIST_USAGE,
  TOKEN_REVOKE_USAGE,
  TOKEN_USAGE,
  UsageError,
} from './usage.js';

const DEFAULT_DATA = './data';
const DATA_OPTION = { data: { type: 'string' } } as const;

/** `hearth token <create|list|revoke>`; returns the exit code. */
export async function tokenCommand(args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create':
      return create(rest);
    case 'list':
      return list(rest);
    case 'revoke':
      return revoke(rest);
    case '-h':
    case '--help':
      process.stdout.write(TOKEN_USAGE);
      return EXIT_OK;
    case undefined:
      throw new UsageError('missing the token command: create, list or revoke', TOKEN_USAGE);
    default:
      throw new UsageError(`unknown token command ${JSON.stringify(sub)}: expected create, list or revoke`, TOKEN_USAGE);
  }
}

async function create(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { ...DATA_OPTION, name: { type: 'string' } }, TOKEN_CREATE_USAGE);
  if (values.help) return help(TOKEN_CREATE_USAGE);
  const name = requireString(values, 'name', TOKEN_CREATE_USAGE).trim();
  const dataDir = optionalString(values, 'data') ?? DEFAULT_DATA;
  const store = await AuthStore.open(dataDir, stderrLogger());
  try {
    const owner = await store.ensureOwner();
    if (store.findTokenByName(name, owner.id) !== undefined) {
      return fail(
        `a token named ${JSON.stringify(printable(name))} already exists in ${dataDir}; revoke it first or choose another --name`,
      );
    }
    let token: string;
    try {
      token = await store.createToken(owner.id, name);
    } catch (err) {
      return fail((err as Error).message);
    }
    // The token alone on stdout, so that `TOKEN=$(hearth token create ...)` just works.
    process.stdout.write(`${token}\n`);
    if (process.stderr.isTTY) {
      process.stderr.write(
        `Created token ${JSON.stringify(printable(name))}. Send it as "Authorization: Bearer <token>"; it is not shown again.\n`,
      );
    }
    return EXIT_OK;
  } finally {
    await store.close();
    await keepOwner(dataDir);
  }
}

async function list(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs(args, DATA_OPTION, TOKEN_LIST_USAGE);
  if (values.help) return help(TOKEN_LIST_USAGE);
  const dataDir = optionalString(values, 'data') ?? DEFAULT_DATA;
  const store = await AuthStore.open(dataDir, stderrLogger());
  try {
    const tokens = store.listTokens();
    if (tokens.length === 0) {
      process.stdout.write(`No tokens in ${dataDir}. Create one with: npx hearth token create --data ${dataDir} --name NAME\n`);
      return EXIT_OK;
    }
    process.stdout.write(tokenTable(tokens, (id) => store.getUser(id)?.name));
    return EXIT_OK;
  } finally {
    await store.close();
  }
}

async function revoke(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, DATA_OPTION, TOKEN_REVOKE_USAGE, true);
  if (values.help) return help(TOKEN_REVOKE_USAGE);
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'missing the NAME of the token to revoke' : 'give one token NAME to revoke',
      TOKEN_REVOKE_USAGE,
    );
  }
  const name = (positionals[0] as string).trim();
  const dataDir = optionalString(values, 'data') ?? DEFAULT_DATA;
  const store = await AuthStore.open(dataDir, stderrLogger());
  try {
    const matches = store.listTokens().filter((t) => t.name === name);
    if (matches.length === 0) {
      const known = store.listTokens().map((t) => printable(t.name));
      return fail(
        `no token named ${JSON.stringify(printable(name))} in ${dataDir}${known.length > 0 ? `; tokens: ${known.join(', ')}` : ''}`,
      );
    }
    for (const token of matches) await store.revokeToken(token.id);
    process.stdout.write(`Revoked token ${JSON.stringify(printable(name))}\n`);
    return EXIT_OK;
  } finally {
    await store.close();
    await keepOwner(dataDir);
  }
}

/**
 * `sudo hearth token create --data /var/lib/hearth` runs as root, and would leave auth.json owned by
 * root where the service (user hearth) cannot read it: give the file to the data directory's owner.
 */
async function keepOwner(dataDir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  try {
    const dir = await stat(dataDir);
    if (dir.uid !== 0) await chown(join(dataDir, AUTH_FILE), dir.uid, dir.gid);
  } catch {
    // No directory or no file (nothing was written): nothing to hand over.
  }
}

/** A plain-text table: NAME, USER, CREATED, LAST USED (times in UTC, to the second). */
export function tokenTable(tokens: readonly TokenSummary[], userName: (id: string) => string | undefined): string {
  const rows = tokens.map((t) => [
    printable(t.name),
    printable(userName(t.userId) ?? t.userId),
    shortTime(t.createdAt),
    t.lastUsedAt === null ? 'never' : shortTime(t.lastUsedAt),
  ]);
  const header = ['NAME', 'USER', 'CREATED', 'LAST USED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

function shortTime(iso: string): string {
  return iso.replace(/\.\d+Z$/, 'Z');
}

function help(usage: string): number {
  process.stdout.write(usage);
  return EXIT_OK;
}

function fail(message: string): number {
  process.stderr.write(`hearth: ${message}\n`);
  return EXIT_FAILURE;
}
