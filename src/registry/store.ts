import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonValue } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';

/** Registries wait this long after a change before writing, so a burst of changes costs one write. */
export const DEFAULT_SAVE_DELAY_MS = 1000;
const FORMAT_VERSION = 1;

/** Writes a file atomically; tests pass one that counts. */
export type WriteFile = (path: string, data: string) => Promise<void>;

export interface StoreOptions {
  /** `<data dir>/registry` */
  readonly dir: string;
  readonly log: Logger;
  readonly saveDelayMs?: number;
  readonly writeFile?: WriteFile;
}

interface StoredFile {
  readonly version: number;
  readonly items: readonly JsonValue[];
}

/**
 * One registry's JSON file, `{version, items}`. Loaded once at start; changes schedule a save that runs
 * after the delay (one write for any number of changes in between), atomically, and only when the
 * content differs from what is on disk. A corrupt or unreadable file is moved aside and logged; the hub
 * starts with an empty registry.
 */
export class RegistryFile {
  readonly path: string;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /**
   * A digest of the content last written or queued, so an unchanged registry is not written again. Only
   * the digest is kept: the text itself is as large as the file (hundreds of KB with a thousand entities).
   */
  private queued: string | undefined;
  private readonly delayMs: number;
  private readonly write: WriteFile;

  constructor(
    name: string,
    private readonly serialize: () => readonly JsonValue[],
    private readonly options: StoreOptions,
  ) {
    this.path = join(options.dir, `${name}.json`);
    this.delayMs = options.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS;
    this.write = options.writeFile ?? ((path, data) => writeFileAtomic(path, data, 0o600));
  }

  /** The stored items; empty when there is no file yet or it was corrupt (then moved aside). */
  async load(): Promise<readonly JsonValue[]> {
    const { log } = this.options;
    let loaded: Awaited<ReturnType<typeof readJsonFile<unknown>>>;
    try {
      loaded = await readJsonFile<unknown>(this.path);
    } catch (err) {
      log.error({ err, path: this.path }, 'registry file could not be read; starting with an empty registry');
      return [];
    }
    if (loaded.status === 'missing') return [];
    if (loaded.status === 'corrupt') {
      log.error({ path: this.path, movedTo: loaded.movedTo }, 'registry file was corrupt; moved aside, starting with an empty registry');
      return [];
    }
    const value = loaded.value;
    if (!isJsonObject(value) || value.version !== FORMAT_VERSION || !Array.isArray(value.items)) {
      const movedTo = `${this.path}.corrupt.${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(this.path, movedTo).catch(() => {});
      log.error({ path: this.path, movedTo }, `registry file is not a version ${FORMAT_VERSION} registry; moved aside, starting empty`);
      return [];
    }
    this.queued = digest(text(value.items as readonly JsonValue[]));
    return value.items as readonly JsonValue[];
  }

  /** True while a save is scheduled. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** Saves after the delay; more changes before then join the same write. */
  schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save().catch(() => {});
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now if anything changed (called on stop) and waits for writes in flight. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.save().catch(() => {});
    }
    await this.writing.catch(() => {});
  }

  /** Serialises writes, so two saves never interleave; a failed write is logged and retried on the next change. */
  private save(): Promise<void> {
    const content = text(this.serialize());
    const hash = digest(content);
    if (hash === this.queued) return this.writing;
    this.queued = hash;
    this.writing = this.writing
      .catch(() => {})
      .then(() => this.write(this.path, content))
      .catch((err: unknown) => {
        if (this.queued === hash) this.queued = undefined;
        this.options.log.error({ err, path: this.path }, 'could not save registry file');
        throw err;
      });
    return this.writing;
  }
}

function digest(content: string): string {
  return createHash('sha256').update(content).digest('base64');
}

function text(items: readonly JsonValue[]): string {
  const file: StoredFile = { version: FORMAT_VERSION, items };
  return `${JSON.stringify(file, null, 1)}\n`;
}
