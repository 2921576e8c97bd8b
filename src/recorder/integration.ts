import type { Component } from '../core/component.js';
import type { Integration, SectionParser } from '../integration/integration.js';
import { parseRecorderSection } from './config.js';
import { Recorder } from './recorder.js';
import { Statistics } from './statistics.js';
import type { RecorderConfig } from './types.js';

/** History and the long-term statistics, started and stopped together (the statistics read what is recorded). */
export class Recording implements Component {
  readonly name = 'recorder';

  constructor(
    readonly recorder: Recorder,
    readonly statistics: Statistics,
  ) {}

  async start(): Promise<void> {
    await this.recorder.start();
    await this.statistics.start();
  }

  async stop(): Promise<void> {
    await this.statistics.stop();
    await this.recorder.stop();
  }
}

/** `recorder:` (on without the section, as in Home Assistant): history, logbook and statistics. */
export const recorderIntegration: Integration<{ recorder: SectionParser<RecorderConfig> }, Recording> = {
  name: 'recorder',
  sections: { recorder: parseRecorderSection },
  // Before the registries and everything after them, so every change that follows reaches history.
  stage: 'storage',
  create: (ctx, { recorder }) =>
    recorder.enabled
      ? new Recording(
          new Recorder({ core: ctx.core, dataDir: ctx.dataDir, log: ctx.log, config: recorder }),
          new Statistics({
            core: ctx.core,
            dataDir: ctx.dataDir,
            log: ctx.log.child({ part: 'statistics' }),
            keepDays: recorder.purgeKeepDays,
            offsetSeconds: (s) => ctx.timeZone.offsetMs(s * 1000) / 1000,
          }),
        )
      : undefined,
};
