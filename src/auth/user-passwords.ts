// Passwords of the hub's users: usernames and scrypt hashes in the credentials file, checked at login.

import { HubError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { type StoredUser, toUser } from './auth-file.js';
import { CredentialsFile, normalizeUsername, usernameProblem } from './credentials.js';
import { hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from './passwords.js';
import type { User } from './types.js';

/** Users' logins; `users` reads the auth file's users as they are now, `save` writes a changed username there. */
export class UserPasswords {
  /** Opened on first use, so commands that never touch passwords never read the file. */
  private file: Promise<CredentialsFile> | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
    private readonly users: () => StoredUser[],
    private readonly save: () => Promise<void>,
  ) {}

  private credentials(): Promise<CredentialsFile> {
    this.file ??= CredentialsFile.open(this.dataDir, this.log);
    return this.file;
  }

  /** True once any password was ever set: the web onboarding is then closed for good. */
  async onboarded(): Promise<boolean> {
    const file = await this.credentials();
    await file.refresh();
    return file.onboarded;
  }

  /** The login name of a user who has a password. */
  async usernameOf(userId: string): Promise<string | undefined> {
    const file = await this.credentials();
    await file.refresh();
    return file.byUserId(userId)?.username;
  }

  /**
   * Sets a user's username and password (hashed with scrypt and a fresh salt). Problems are HubErrors
   * naming the field: `username` (format, taken) or `password` (length).
   */
  async setPassword(userId: string, username: string, password: string): Promise<void> {
    const user = this.users().find((u) => u.id === userId);
    if (user === undefined) throw new Error(`no user with id ${userId}`);
    const name = normalizeUsername(username);
    const nameProblem = usernameProblem(name);
    if (nameProblem !== undefined) throw new HubError('invalid_format', `username ${nameProblem}`);
    const problem = passwordProblem(password);
    if (problem !== undefined) throw new HubError('invalid_format', `password ${problem}`);
    const file = await this.credentials();
    await file.refresh();
    const taken = file.byUsername(name);
    if (taken !== undefined && taken.user_id !== userId) throw new HubError('invalid_format', `username ${name} is taken`);
    await file.set(userId, name, await hashPassword(password));
    if (user.username !== name) {
      user.username = name;
      await this.save();
    }
  }

  /** Forgets a deleted user's login. */
  async remove(userId: string): Promise<void> {
    const file = await this.credentials();
    await file.refresh();
    await file.remove(userId);
  }

  /** The user whose username and password these are; the same work is done for unknown usernames. */
  async checkPassword(username: string, password: string): Promise<User | undefined> {
    const file = await this.credentials();
    await file.refresh();
    const entry = file.byUsername(username);
    const user = entry === undefined ? undefined : this.users().find((u) => u.id === entry.user_id);
    if (entry === undefined || user === undefined) return verifyAgainstNothing(password).then(() => undefined);
    return (await verifyPassword(password, entry.password)) ? toUser(user) : undefined;
  }
}
