/**
 * Reads a V8 .cpuprofile (`node --cpu-prof`) and says where the time went, by what was on top of the
 * stack: Node's module loader, hearth's code, YAML parsing, other packages, garbage collection. Used by the
 * startup benchmark to show what a start is made of, with the profile itself kept in bench/out/.
 * Frames in the bundled build (dist/hearth/) are traced back to their source file through its source map.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly category: string;
  readonly ms: number;
}

const LOADER = /^node:internal\/(modules|url|fs\/promises)|^node:(path|fs|url)$/;

const maps = new Map<string, SourceMap | undefined>();

/** The source file a bundled frame came from (src/..., node_modules/...), or the frame's own url. */
function sourceUrlOf(frame: CallFrame): string {
  // Node reports a module by its real path: dist/hearth/ is a link into dist/.builds/<id>/hearth/.
  if (!/\/dist\/(\.builds\/[^/]+\/)?hearth\//.test(frame.url)) return frame.url;
  let map = maps.get(frame.url);
  if (!maps.has(frame.url)) {
    const file = `${fileURLToPath(frame.url)}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload) : undefined;
    maps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
  const source = entry?.originalSource;
  // esbuild's own glue (the wrappers that run bundled CommonJS packages) has no original source.
  if (source === undefined) return 'bundle:';
  // tsc's output maps on to the TypeScript sources: file:///.../src/x.ts reads as the built dist/src/x.js did.
  return source.replace(/\/(src|drivers)\//, '/dist/$1/').replace(/\.ts$/, '.js');
}

function categoryOf(stack: readonly ProfileNode[]): string {
  const leaf = stack[0]?.callFrame;
  if (leaf === undefined) return 'other';
  const url = sourceUrlOf(leaf);
  if (url === 'bundle:') return "bundle glue (esbuild's wrappers running CommonJS packages)";
  if (url.includes('/node_modules/yaml/')) return 'YAML parser (yaml package)';
  if (url.includes('/node_modules/')) return 'other packages (pino, uWS, ...)';
  if (url.includes('/dist/')) {
    const part = url
      .replace(/.*\/dist\//, '')
      .split('/')
      .slice(0, 2)
      .join('/');
    return `hearth: ${part.endsWith('.js') ? part : `${part}/`}`;
  }
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle (waiting for I/O)';
  // Native or Node-internal work: module loading if the loader is anywhere below it.
  if (stack.some((n) => LOADER.test(n.callFrame.url) && n.callFrame.url.includes('modules')))
    return "Node's module loader (resolve, read, compile, link)";
  if (
    url === '' &&
    /^(internalModuleStat|openFileHandle|readFileUtf8|fstat|lstat|close|read|realpath|dlopen|compileFunction)/.test(leaf.functionName)
  )
    return "Node's module loader (resolve, read, compile, link)";
  return 'Node internals and other native work';
}

/** Time per category from the profile's start until `untilMs` after it, largest first. */
export function profileShares(path: string, untilMs = Number.POSITIVE_INFINITY): ProfileShare[] {
  const p = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if ((t - p.startTime) / 1000 > untilMs) break;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const stack: ProfileNode[] = [];
    for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (n !== undefined) stack.push(n);
    }
    const category = categoryOf(stack);
    totals.set(category, (totals.get(category) ?? 0) + dt);
  }
  return [...totals].map(([category, ms]) => ({ category, ms })).sort((a, b) => b.ms - a.ms);
}

export interface SelfTime {
  /** `function (file:line)` or a file, as the source map names it. */
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/** Where `url:line:column` of a frame came from, through the bundle's source map: `file:line`. */
function sourceOf(frame: CallFrame): string {
  if (frame.url === '') return '(native)';
  if (!frame.url.includes('/dist/hearth/')) return `${frame.url.replace(/.*\/node_modules\//, '')}:${frame.lineNumber + 1}`;
  sourceUrlOf(frame);
  const map = maps.get(frame.url);
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource === undefined) return 'bundle:';
  return `${entry.originalSource.replace(/.*\/(src|drivers|node_modules)\//, '$1/')}:${(entry.originalLine ?? 0) + 1}`;
}

/**
 * Self time (the frame on top of the stack) summed by function and by source file, largest first, each
 * with its share of the non-idle time, from `fromMs` after the profile's start. What a hot path spends its time on, as a flame graph's bottom row.
 */
export function selfTimes(path: string, fromMs = 0): { byFunction: SelfTime[]; byFile: SelfTime[]; busyMs: number } {
  const p = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  let busy = 0;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if ((t - p.startTime) / 1000 < fromMs) continue;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = byId.get(p.samples[i] as number)?.callFrame;
    if (frame === undefined || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
    busy += dt;
    const where = sourceOf(frame);
    const file = where.replace(/:\d+$/, '');
    const fn = `${frame.functionName || '(anonymous)'} ${where}`;
    fns.set(fn, (fns.get(fn) ?? 0) + dt);
    files.set(file, (files.get(file) ?? 0) + dt);
  }
  const rank = (m: Map<string, number>): SelfTime[] =>
    [...m].map(([name, ms]) => ({ name, ms, share: ms / busy })).sort((a, b) => b.ms - a.ms);
  return { byFunction: rank(fns), byFile: rank(files), busyMs: busy };
}
