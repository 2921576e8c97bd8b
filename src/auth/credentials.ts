import { join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { type FileStamp, fileStamp } from '../storage/watched-file.js';

/** Login names and password hashes, apart from auth.json so that `hearth user password` can write it while the hub runs. */
export const CREDENTIALS_FILE = 'credentials.json';

export interface StoredCredential {
  user_id: string;
  /** Lower case; what the login form takes. */
  username: string;
  /** `scrypt$...` from passwords.ts. */
  password: string;
  updated_at: string;
}

interface CredentialsData {
  version: 1;
  /** Set with the first password ever; onboarding stays closed from then on, whatever happens to users. */
  onboarded_at: string | null;
  credentials: StoredCredential[];
}

const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** A username as stored and compared: trimmed, lower case. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** What is wrong with a username (already normalised), or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (username === '') return 'is required';
  if (!USERNAME_PATTERN.test(username)) {
    return 'must have 1 to 64 characters: letters, digits and . _ @ -, starting with a letter or digit';
  }
  return undefined;
}

/**
 * The credentials file. Another process (the CLI) may replace it while the hub runs, so `refresh()`
 * re-reads it when its inode, size or time changed; callers refresh before every password check.
 */
export class CredentialsFile {
  private stamp: FileStamp | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private data: CredentialsData,
    private readonly log: Logger,
  ) {}

  static async open(dataDir: string, log: Logger): Promise<CredentialsFile> {
    const file = new CredentialsFile(join(dataDir, CREDENTIALS_FILE), empty(), log);
    await file.reload();
    return file;
  }

  get onboarded(): boolean {
    return this.data.onboarded_at !== null;
  }

  byUserId(userId: string): StoredCredential | undefined {
    return this.data.credentials.find((c) => c.user_id === userId);
  }

  byUsername(username: string): StoredCredential | undefined {
    const wanted = normalizeUsername(username);
    return this.data.credentials.find((c) => c.username === wanted);
  }

  /** Re-reads the file when another process changed it. */
  async refresh(): Promise<void> {
    await this.writing.catch(() => {});
    if ((await fileStamp(this.path)) === this.stamp) return;
    await this.reload();
  }

  /** Sets (or replaces) a user's login; the username must be free or already theirs. */
  async set(userId: string, username: string, passwordHash: string): Promise<void> {
    const name = normalizeUsername(username);
    const taken = this.byUsername(name);
    if (taken !== undefined && taken.user_id !== userId) throw new Error(`the username ${name} is taken`);
    const entry: StoredCredential = { user_id: userId, username: name, password: passwordHash, updated_at: isoFromMillis() };
    this.data.credentials = [...this.data.credentials.filter((c) => c.user_id !== userId), entry];
    this.data.onboarded_at ??= entry.updated_at;
    await this.save();
  }

  /** Removes a user's login (the user was deleted); the username is free again. */
  async remove(userId: string): Promise<void> {
    if (this.byUserId(userId) === undefined) return;
    this.data.credentials = this.data.credentials.filter((c) => c.user_id !== userId);
    await this.save();
  }

  private async reload(): Promise<void> {
    const loaded = await readJsonFile<CredentialsData>(this.path);
    if (loaded.status === 'ok' && isCredentialsData(loaded.value)) this.data = loaded.value;
    else {
      if (loaded.status === 'corrupt') this.log.error({ movedTo: loaded.movedTo }, 'credentials file was corrupt; moved aside');
      else if (loaded.status === 'ok') this.log.error({ path: this.path }, 'credentials file has an unknown shape; ignoring it');
      if (loaded.status === 'missing') this.data = empty();
      else {
        // Onboarding stays closed if it ever was: a broken file must not let a stranger claim the hub,
        // now or after a restart. Passwords are then set again with `hearth user password`.
        this.data = { ...empty(), onboarded_at: isoFromMillis() };
        await this.save();
        return;
      }
    }
    this.stamp = await fileStamp(this.path);
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify(this.data, null, 2)}\n`;
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        await writeFileAtomic(this.path, text, 0o600);
        this.stamp = await fileStamp(this.path);
      });
    return this.writing;
  }
}

function empty(): CredentialsData {
  return { version: 1, onboarded_at: null, credentials: [] };
}

function isCredentialsData(value: unknown): value is CredentialsData {
  const v = value as Partial<CredentialsData> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.credentials) &&
    v.credentials.every((c) => typeof c?.user_id === 'string' && typeof c.username === 'string' && typeof c.password === 'string') &&
    (v.onboarded_at === null || typeof v.onboarded_at === 'string')
  );
}
