import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { JsonValue } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, type RetryPolicy, readDataFile, type WriteFile } from '../storage/data-file.js';

export type { WriteFile } from '../storage/data-file.js';

/** Registries wait this long after a change before writing, so a burst of changes costs one write. */
export const DEFAULT_SAVE_DELAY_MS = 1000;
const FORMAT_VERSION = 1;

export interface StoreOptions {
  /** `<data dir>/registry` */
  readonly dir: string;
  readonly log: Logger;
  readonly saveDelayMs?: number;
  readonly writeFile?: WriteFile;
  /** After a failed write; by default 5 and at most 300 save delays (5 s doubling to 5 min). */
  readonly retry?: RetryPolicy;
}

interface StoredFile {
  readonly version: number;
  readonly items: JsonValue[];
}

function isStoredFile(value: unknown): value is StoredFile {
  return isJsonObject(value) && value.version === FORMAT_VERSION && Array.isArray(value.items);
}

/**
 * One registry's JSON file, `{version, items}`. Loaded once at start; changes schedule a save that runs
 * after the delay (one write for any number of changes in between), atomically, and only when the
 * content differs from what is on disk. A corrupt file is moved aside and logged; the hub starts with an
 * empty registry. A write the disk refuses is logged once and retried with backoff (data-file.ts).
 */
export class RegistryFile {
  readonly path: string;
  private timer: NodeJS.Timeout | undefined;
  /**
   * A digest of the content on disk, so an unchanged registry is not written again. Only the digest is
   * kept: the text itself is as large as the file (hundreds of KB with a thousand entities).
   */
  private written: string | undefined;
  private readonly delayMs: number;
  private readonly file: DataFile;

  constructor(
    name: string,
    private readonly serialize: () => readonly JsonValue[],
    private readonly options: StoreOptions,
  ) {
    this.path = join(options.dir, `${name}.json`);
    this.delayMs = options.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS;
    this.file = new DataFile({
      path: this.path,
      log: options.log,
      label: 'registry file',
      writeFile: options.writeFile,
      retry: options.retry ?? { initialMs: 5 * this.delayMs, maxMs: 300 * this.delayMs },
      render: () => {
        const content = text(this.serialize());
        return digest(content) === this.written ? undefined : content;
      },
      onWritten: (content) => {
        this.written = digest(content);
      },
    });
  }

  /** The stored items; empty when there is no file yet or it was corrupt (then moved aside). */
  async load(): Promise<readonly JsonValue[]> {
    const { log } = this.options;
    let loaded: Awaited<ReturnType<typeof readDataFile<StoredFile>>>;
    try {
      loaded = await readDataFile(this.path, {
        log,
        parse: jsonOf(isStoredFile, `a version ${FORMAT_VERSION} registry ({"version": ${FORMAT_VERSION}, "items": [...]})`),
        label: 'registry file',
        fallback: 'starting with an empty registry',
      });
    } catch (err) {
      log.error({ err, path: this.path }, `registry file ${this.path} could not be read; starting with an empty registry`);
      return [];
    }
    if (loaded.status !== 'ok') return [];
    this.written = digest(text(loaded.value.items));
    return loaded.value.items;
  }

  /** True while a save is scheduled. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** True while the disk refuses this file's writes (the registry lives in memory until it works again). */
  get failing(): boolean {
    return this.file.failing;
  }

  /** Saves after the delay; more changes before then join the same write. */
  schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.file.save().catch(() => {});
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now if anything changed (called on stop) and waits for writes in flight. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.file.save().catch(() => {});
    }
    await this.file.flush();
  }

  /** Flushes, then stops retrying: nothing is written after the hub stopped. */
  async stop(): Promise<void> {
    await this.flush();
    await this.file.stop();
  }
}

function digest(content: string): string {
  return createHash('sha256').update(content).digest('base64');
}

function text(items: readonly JsonValue[]): string {
  const file: StoredFile = { version: FORMAT_VERSION, items: items as JsonValue[] };
  return `${JSON.stringify(file, null, 1)}\n`;
}
