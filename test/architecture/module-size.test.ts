import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * The style rule (GUIDE, "Small modules with one concern"): no module in src/ or drivers/ over this many lines,
 * and no file of code or data in test/ or bench/ either (a test file of one concern, shared setup in a helper
 * next to it; fixtures split by theme).
 */
const MAX_LINES = 400;

/** Files in test/ and bench/ that count: code, and the data tests read. Prose (.md) and images do not. */
const COUNTED_IN_TESTS = new Set(['.ts', '.mjs', '.js', '.py', '.json', '.yaml', '.yml']);

/** What a benchmark writes (git ignores it): results, not sources. */
const GENERATED = new Set(['bench/out']);

/** Lines as `wc -l` counts them: a final newline ends the last line rather than starting another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** The counted files under `dir` (a path from the package root), as paths from the root. */
function testAndBenchFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(packageRoot(), dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!GENERATED.has(path)) out.push(...testAndBenchFiles(path));
    } else if (COUNTED_IN_TESTS.has(extname(entry.name))) out.push(path);
  }
  return out;
}

function overLimit(files: readonly string[]): string[] {
  const over: string[] = [];
  for (const file of [...files].sort()) {
    const lines = lineCount(readFileSync(join(packageRoot(), file), 'utf8'));
    if (lines > MAX_LINES) over.push(`${file}: ${lines} lines`);
  }
  return over;
}

t.test(`no .ts module in src/ or drivers/ is over ${MAX_LINES} lines`, async (t) => {
  const over = overLimit([...sourceFiles('src'), ...sourceFiles('drivers')]);
  t.same(over, [], `modules over ${MAX_LINES} lines (split them along their concerns)`);
});

t.test(`no file of code or data in test/ or bench/ is over ${MAX_LINES} lines, test/fixtures included`, async (t) => {
  const files = [...testAndBenchFiles('test'), ...testAndBenchFiles('bench')];
  t.ok(
    files.some((f) => f.startsWith('test/fixtures/') && f.endsWith('.json')),
    'the fixtures are counted, their data too',
  );
  const over = overLimit(files);
  t.same(over, [], `files over ${MAX_LINES} lines (split a test along its concerns, shared setup in a helper next to it; data by theme)`);
});
