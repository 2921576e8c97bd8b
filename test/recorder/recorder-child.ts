/**
 * The process the recorder's kill -9 test starts and kills: it opens a recorder on DATA_DIR, prints the last
 * value it holds (`loaded <n>`, -1 for none), then records sensor.k = n+1, n+2, ... thirty simulated seconds
 * apart (so hours are sealed and days compacted every few hundred changes), committing every 7 changes and
 * printing `w <n>` once a commit holding n is on disk, until it is killed.
 *
 *   node --import tsx test/recorder/recorder-child.ts DATA_DIR
 */
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { Recorder } from '../../src/recorder/recorder.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: recorder-child.ts DATA_DIR');
const T0 = Date.UTC(2026, 2, 10, 0, 0, 0) * 1000;
const STEP = 30_000_000;
const clock = new ManualClock(T0);
const core = new Core({ log: silentLogger, clock });
const recorder = new Recorder({ core, dataDir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false });
await recorder.start();
let last = -1;
recorder.forEachState('sensor.k', 0, Number.MAX_SAFE_INTEGER, false, (s) => {
  last = Math.max(last, Number(s));
});
process.stdout.write(`loaded ${last}\n`);
for (let n = last + 1; ; n++) {
  clock.advance(T0 + n * STEP - clock.now());
  core.states.set('sensor.k', String(n), { state_class: 'measurement' });
  if (n % 7 === 0) {
    await recorder.tick();
    process.stdout.write(`w ${n}\n`);
  }
}
