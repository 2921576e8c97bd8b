import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';

/**
 * test/ mirrors src/ and drivers/ folder for folder (docs/development.md, "Where a test goes"): the tests of
 * src/x/y/ sit in test/x/y/, those of drivers/z/ in test/drivers/z/, those of scripts/ in test/scripts/.
 * Only the folders below hold no tests of their own: shared test code (not tests) and data.
 */
const NOT_MIRRORED = new Set(['architecture', 'fakes', 'fixtures']);

/** Every folder under test/ (as a path below test/), except the allowed ones and what lies under them. */
function testFolders(dir = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(packageRoot(), 'test', dir), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (dir === '' && NOT_MIRRORED.has(entry.name)) continue;
    out.push(path, ...testFolders(path));
  }
  return out;
}

/** The source folder a test folder stands for: test/drivers/z → drivers/z, test/scripts → scripts, else src/. */
function sourceFolder(testFolder: string): string {
  if (testFolder === 'drivers' || testFolder.startsWith('drivers/')) return testFolder;
  if (testFolder === 'scripts') return 'scripts';
  return `src/${testFolder}`;
}

t.test('every test folder stands for a folder of src/, drivers/ or scripts/', async (t) => {
  const folders = testFolders();
  t.ok(folders.length > 10, `found the test folders (${folders.length})`);
  const orphans = folders.filter((f) => !existsSync(join(packageRoot(), sourceFolder(f))));
  t.same(orphans, [], `test folders without a source folder: put their tests next to the source they test (${orphans.join(', ')})`);
});

t.test('test/fakes and test/fixtures hold no tests', async (t) => {
  const tests: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(packageRoot(), 'test', dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) tests.push(path);
    }
  };
  walk('fakes');
  walk('fixtures');
  t.same(tests, [], 'shared test code and data only; a test goes next to the source it tests');
});
