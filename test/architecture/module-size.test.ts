import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/** The style rule (GUIDE, "Small modules with one concern"): no module in src/ or drivers/ over this many lines. */
const MAX_LINES = 400;

/** Lines as `wc -l` counts them: a final newline ends the last line rather than starting another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

t.test(`no .ts module in src/ or drivers/ is over ${MAX_LINES} lines`, async (t) => {
  const over: string[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('drivers')].sort()) {
    const lines = lineCount(readFileSync(join(packageRoot(), file), 'utf8'));
    if (lines > MAX_LINES) over.push(`${file}: ${lines} lines`);
  }
  t.same(over, [], `modules over ${MAX_LINES} lines (split them along their concerns)`);
});
