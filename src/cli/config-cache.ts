import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParsedBefore } from '../config/load.js';
import type { JsonValue } from '../core/json.js';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { CODE_CACHE_FOLDER } from './code-cache.js';

/**
 * The configuration's YAML as the previous start of the same build parsed it, kept as JSON in the data directory
 * (code-cache/parsed-config.json, beside the compiled code, code-cache.ts): a start whose configuration text is the
 * same reads that instead of parsing the YAML again, a tenth of the demo's start (bench/RESULTS.md, Startup). Only
 * texts that read nothing else are kept (config/load.ts: no included file, secret or variable), so none of them can
 * change what is kept without the text, and no secret is written there; the sections are still validated each start, and a text with any problem is read as if new.
 *
 * The file names its text by a SHA-256 of the build (this script's path, size and time: each build has its folder)
 * and the text; any other file, a damaged one included, is not used, and is replaced once the hub serves.
 */
export class ParsedConfigCache implements ParsedBefore {
  private pending: string | undefined;
  private readonly build: string;

  constructor(private readonly file: string) {
    const script = fileURLToPath(import.meta.url);
    const { size, mtimeMs } = statSync(script);
    this.build = JSON.stringify([FORMAT, script, size, mtimeMs]);
  }

  /** The cache of the data directory `dataDir`. */
  static in(dataDir: string): ParsedConfigCache {
    return new ParsedConfigCache(join(dataDir, CODE_CACHE_FOLDER, 'parsed-config.json'));
  }

  get(text: string): JsonValue | undefined {
    let kept: unknown;
    try {
      kept = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return undefined;
    }
    if (typeof kept !== 'object' || kept === null || !('key' in kept) || !('root' in kept)) return undefined;
    return kept.key === this.key(text) ? (kept.root as JsonValue) : undefined;
  }

  keep(text: string, json: string): void {
    this.pending = `{"key":${JSON.stringify(this.key(text))},"root":${json}}\n`;
  }

  /** Writes what a start parsed anew (nothing when the kept one was used): once the hub serves. */
  async save(): Promise<void> {
    const data = this.pending;
    this.pending = undefined;
    if (data !== undefined) await writeFileAtomic(this.file, data);
  }

  private key(text: string): string {
    return createHash('sha256').update(this.build).update('\0').update(text).digest('hex');
  }
}

/** Bumped when what is kept changes meaning. */
const FORMAT = 1;
