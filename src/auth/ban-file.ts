import { join } from 'node:path';
import { isMap, isScalar, LineCounter, type Pair, parseDocument, type YAMLMap } from 'yaml';
import { isoFromMillis } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { type DataLoad, readDataFile, Salvaged } from '../storage/data-file.js';
import { isIpAddress, normalizeAddress } from './address.js';

/** Home Assistant's file and format: `<ip>: {banned_at: <ISO time>}`, so people who know one know the other. */
export const BANS_FILE = 'ip_bans.yaml';

export type BanList = Map<string, { banned_at: string }>;

/** A time as Home Assistant's `datetime.isoformat()` and hearth write it (the zone may be left out by hand). */
const ISO_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:?\d\d)?$/;

/** The ban file as text: one mapping per address, sorted, as Home Assistant writes it. */
export function banFileText(bans: BanList): string {
  if (bans.size === 0) return '';
  const lines: string[] = [];
  for (const ip of [...bans.keys()].sort()) {
    lines.push(`${JSON.stringify(ip)}:`, `  banned_at: ${JSON.stringify((bans.get(ip) as { banned_at: string }).banned_at)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Parses a ban file; undefined (after logging what is wrong) when it is not YAML of the expected shape or an
 * entry is damaged: another process's file (the CLI's read, the running hub's re-read) is never cut here.
 */
export function parseBans(text: string, log: Logger): BanList | undefined {
  try {
    const read = banListOf(text);
    if (!(read instanceof Salvaged)) return read;
    log.error({ problem: read.problem }, `${BANS_FILE} is damaged: %s`, read.problem);
  } catch (err) {
    log.error({ problem: (err as Error).message }, `${BANS_FILE} is not valid: %s`, (err as Error).message);
  }
  return undefined;
}

/**
 * Reads the ban file at start. One that does not parse at all is moved aside, and the hub starts with no bans;
 * one with a damaged entry (a power cut in the middle of a write: `"1.2.3.4":\n  banned_at:`) is copied aside,
 * its whole entries are kept, and the caller writes them back. Either way one error names the file and entry.
 */
export function loadBans(path: string, log: Logger): Promise<DataLoad<BanList>> {
  return readDataFile(path, { log, parse: banListOf, label: 'ban file', fallback: 'no address is banned now' });
}

/** Writes a ban list (the CLI's unban). */
export function writeBans(dataDir: string, bans: BanList): Promise<void> {
  return writeFileAtomic(join(dataDir, BANS_FILE), banFileText(bans), 0o600);
}

/**
 * The bans in a ban file's text; Salvaged when some entries are damaged (each named by line); throws when
 * no entry is whole. An entry is whole when its key is an IP address and its
 * value a mapping whose `banned_at` is a time.
 */
export function banListOf(text: string): BanList | Salvaged<BanList> {
  const bans: BanList = new Map();
  if (text.trim() === '') return bans;
  const damaged: string[] = [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines });
  if (doc.errors.length === 0 && (doc.contents === null || isMap(doc.contents))) {
    readEntries(doc.contents, (offset) => lines.linePos(offset).line, bans, damaged);
  } else {
    // A YAML error (a quote cut off) spoils the whole document, and a first entry cut before its colon makes it
    // a scalar: each top-level entry is read on its own.
    for (const chunk of entryChunks(text)) {
      const chunkLines = new LineCounter();
      const one = parseDocument(chunk.text, { uniqueKeys: false, lineCounter: chunkLines });
      const lineOf = (offset: number) => chunk.line + chunkLines.linePos(offset).line - 1;
      if (one.errors.length > 0 || (one.contents !== null && !isMap(one.contents))) {
        const why = one.errors[0]?.message.split('\n')[0] ?? 'expected "<address>": {banned_at: <time>}';
        damaged.push(`line ${chunk.line}: ${JSON.stringify(printable(chunk.text.split('\n')[0] ?? ''))} is cut off or not YAML (${why})`);
        continue;
      }
      readEntries(one.contents, lineOf, bans, damaged);
    }
  }
  if (damaged.length === 0) return bans;
  const problem = damaged.length > 3 ? `${damaged.slice(0, 3).join('; ')} and ${damaged.length - 3} more` : damaged.join('; ');
  if (bans.size === 0) throw new Error(problem);
  return new Salvaged(bans, problem, `the ${bans.size} whole ban(s) are kept and written back`);
}

function readEntries(map: YAMLMap | null, lineOf: (offset: number) => number, into: BanList, damaged: string[]): void {
  for (const pair of map?.items ?? []) {
    const entry = banEntry(pair as Pair);
    if (typeof entry === 'string') {
      const at = (pair as Pair<{ range?: [number, number, number] }>).key?.range?.[0] ?? 0;
      damaged.push(`line ${lineOf(at)}: ${entry}`);
    } else into.set(entry.ip, { banned_at: entry.bannedAt });
  }
}

/** One entry's address and time, or what is wrong with it. */
function banEntry(pair: Pair): { ip: string; bannedAt: string } | string {
  const key = isScalar(pair.key) ? pair.key.value : pair.key;
  const name = JSON.stringify(typeof key === 'string' || typeof key === 'number' ? String(key).slice(0, 60) : null);
  if (typeof key !== 'string' || !isIpAddress(key)) return `${name} is not an IP address`;
  if (!isMap(pair.value)) return `${name} has no banned_at`;
  const at = pair.value.get('banned_at');
  if (at instanceof Date && Number.isFinite(at.getTime())) return { ip: normalizeAddress(key), bannedAt: isoFromMillis(at.getTime()) };
  if (at === undefined || at === null) return `${name} has no banned_at`;
  if (typeof at !== 'string' || !ISO_TIME.test(at) || !Number.isFinite(Date.parse(at))) {
    return `${name}: banned_at ${JSON.stringify(String(at).slice(0, 40))} is not a time`;
  }
  return { ip: normalizeAddress(key), bannedAt: at };
}

/** The top-level entries of a block mapping: each starts at a line that is not indented, blank or a comment. */
function entryChunks(text: string): { line: number; text: string }[] {
  const chunks: { line: number; lines: string[] }[] = [];
  let current: { line: number; lines: string[] } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^(---|\.\.\.)(\s|$)/.test(line)) current = undefined;
    else if (/^[^\s#]/.test(line)) {
      current = { line: i + 1, lines: [line] };
      chunks.push(current);
    } else current?.lines.push(line);
  }
  return chunks.map((c) => ({ line: c.line, text: c.lines.join('\n') }));
}

/** The start of a line for the log, control bytes (a zero-filled tail) shown as a count. */
function printable(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what this looks for
  return line.slice(0, 60).replace(/[\u0000-\u001f\u007f]+/g, (run) => `<${run.length} control bytes>`);
}
