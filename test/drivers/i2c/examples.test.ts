import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../../src/hub.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'config', 'examples');

for (const file of ['greenhouse.yaml', 'i2c-serial.yaml']) {
  t.test(`config/examples/${file} is a valid configuration`, async (t) => {
    const path = join(EXAMPLES, file);
    const config = parseConfigText(await readFile(path, 'utf8'), path, SECTION_VALIDATORS);
    t.ok(config.sections.i2c, 'it configures I²C chips');
  });
}
