import { existsSync } from 'node:fs';
import t from 'tap';
import type { GpioBackend } from '../../../drivers/gpio/line.js';
import { loadOnoffBackend, OnoffMissingError } from '../../../drivers/gpio/onoff-backend.js';

t.test('onoff loads lazily; without GPIO sysfs, exporting a line fails with the pin, the sysfs number and the cause', async (t) => {
  let backend: GpioBackend;
  try {
    backend = await loadOnoffBackend();
  } catch (err) {
    // onoff is an optional dependency: where it is absent, the error says how to install it.
    t.ok(err instanceof OnoffMissingError);
    t.match((err as Error).message, /onoff package is not installed.*optional dependency.*npm install onoff@6\.0\.3/s);
    return;
  }
  t.equal(backend.name, 'onoff (sysfs)');
  // Never export a real line from a test: only where there is no GPIO sysfs at all.
  if (existsSync('/sys/class/gpio')) {
    t.comment('this machine has /sys/class/gpio; not exporting a real line');
    return;
  }
  await t.rejects(backend.open({ line: 17, sysfsNumber: 529, direction: 'out', initial: 1 }), {
    message: /^cannot export GPIO17 \(sysfs gpio529\): ENOENT/,
  });
});
