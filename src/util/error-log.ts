import { isoFromMillis } from '../core/clock.js';

/**
 * The recent warnings and errors that `GET /api/error_log` serves, in a ring of fixed size: the log
 * itself goes to stdout (journald), and nothing here ever touches the disk or grows.
 */
export class ErrorLog {
  private readonly lines: (string | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = 500) {
    this.lines = new Array<string | undefined>(capacity).fill(undefined);
  }

  add(line: string): void {
    this.lines[this.next] = line.length > 4000 ? `${line.slice(0, 3997)}...` : line;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Oldest first, one entry per line. */
  text(): string {
    const out: string[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) out.push(this.lines[(start + i) % this.capacity] as string);
    return out.length === 0 ? '' : `${out.join('\n')}\n`;
  }
}

const LEVEL_NAMES: Record<number, string> = { 40: 'WARNING', 50: 'ERROR', 60: 'CRITICAL' };

/** Formats one pino JSON record the way Home Assistant's log reads: time, level, (module), message. */
export function formatLogRecord(record: Record<string, unknown>): string {
  const time = typeof record.time === 'number' ? isoFromMillis(record.time).replace('T', ' ').replace('Z', '') : '';
  const level = LEVEL_NAMES[record.level as number] ?? String(record.level);
  const module = typeof record.module === 'string' ? record.module : typeof record.driver === 'string' ? record.driver : 'hearth';
  let line = `${time} ${level} (${module}) ${String(record.msg ?? '')}`;
  const err = record.err as { message?: string; type?: string } | undefined;
  if (err && typeof err === 'object' && err.message) line += `: ${err.type ?? 'Error'}: ${err.message}`;
  return line;
}
