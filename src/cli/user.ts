import { normalizeUsername, usernameProblem } from '../auth/credentials.js';
import { AuthStore } from '../auth/store.js';
import type { User } from '../auth/types.js';
import { HubError } from '../core/errors.js';
import { readSecret } from './secret-input.js';
import { stderrLogger } from './stderr-logger.js';
import { EXIT_FAILURE, EXIT_OK, optionalString, parseCommandArgs, printable, UsageError } from './usage.js';

export const USER_USAGE = `Usage: hearth user password [--data DIR] USERNAME

  hearth user password USERNAME   Set the password a user logs in to the web pages with

Options:
  -h, --help  Show this help
`;

export const USER_PASSWORD_USAGE = `Usage: hearth user password [--data DIR] USERNAME

Sets the password of the user who logs in as USERNAME, and closes the web onboarding for good.
If no user has that username yet and the owner has no password (it was made by "hearth token
create", or there is no owner yet and it is made now), the owner gets USERNAME as its login.

The password is asked for twice on a terminal (not echoed); otherwise the first line of standard
input is taken, e.g.  printf '%s\\n' "$PASSWORD" | hearth user password admin

A running hub uses the new password at once.

Options:
  --data DIR  Data directory (default: ./data)
  -h, --help  Show this help
`;

const DEFAULT_DATA = './data';

/** Where the password comes from and where messages go; tests pass their own. */
export interface UserCommandIo {
  readPassword(prompt: string): Promise<string>;
  readonly isTerminal: boolean;
  out(text: string): void;
  err(text: string): void;
}

const processIo: UserCommandIo = {
  readPassword: (prompt) => readSecret(prompt),
  isTerminal: process.stdin.isTTY === true,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** `hearth user <password>`; returns the exit code. */
export async function userCommand(args: readonly string[], io: UserCommandIo = processIo): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'password':
      return setPassword(rest, io);
    case '-h':
    case '--help':
      io.out(USER_USAGE);
      return EXIT_OK;
    case undefined:
      throw new UsageError('missing the user command: password', USER_USAGE);
    default:
      throw new UsageError(`unknown user command ${JSON.stringify(sub)}: expected password`, USER_USAGE);
  }
}

async function setPassword(args: readonly string[], io: UserCommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { data: { type: 'string' } }, USER_PASSWORD_USAGE, true);
  if (values.help) {
    io.out(USER_PASSWORD_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'missing the USERNAME' : 'give one USERNAME', USER_PASSWORD_USAGE);
  }
  const username = normalizeUsername(positionals[0] as string);
  const problem = usernameProblem(username);
  if (problem !== undefined) throw new UsageError(`USERNAME ${problem}`, USER_PASSWORD_USAGE);
  const dataDir = optionalString(values, 'data') ?? DEFAULT_DATA;
  const store = await AuthStore.open(dataDir, stderrLogger());
  try {
    const user = await findUser(store, username);
    if (user === undefined) {
      const known = (await Promise.all(store.users().map((u) => store.usernameOf(u.id)))).filter((n) => n !== undefined);
      io.err(
        `hearth: no user logs in as ${JSON.stringify(printable(username))} in ${dataDir}${known.length > 0 ? `; usernames: ${known.map(printable).join(', ')}` : ''}\n`,
      );
      return EXIT_FAILURE;
    }
    const password = await io.readPassword(`New password for ${printable(user.name)} (${printable(username)}): `);
    if (io.isTerminal && (await io.readPassword('Again: ')) !== password) {
      io.err('hearth: the two passwords differ; nothing was changed\n');
      return EXIT_FAILURE;
    }
    try {
      await store.setPassword(user.id, username, password);
    } catch (err) {
      if (err instanceof HubError) {
        io.err(`hearth: ${err.message}\n`);
        return EXIT_FAILURE;
      }
      throw err;
    }
    io.out(`Password set for ${printable(username)} (${printable(user.name)}). Log in on the hub's web page.\n`);
    return EXIT_OK;
  } finally {
    await store.close();
  }
}

/**
 * The user logging in as `username`; else the owner if it has no password yet (it takes that username),
 * made now if there is none.
 */
async function findUser(store: AuthStore, username: string): Promise<User | undefined> {
  for (const user of store.users()) if ((await store.usernameOf(user.id)) === username) return user;
  const owner = store.ownerUser() ?? (await store.ensureOwner());
  return (await store.usernameOf(owner.id)) === undefined ? owner : undefined;
}
