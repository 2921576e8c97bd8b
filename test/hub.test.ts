import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../src/config/load.js';
import type { Logger } from '../src/core/log.js';
import { silentLogger } from '../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../src/hub.js';
import type { AnyIntegration } from '../src/integration/integration.js';
import { INTEGRATIONS } from '../src/sections.js';

function recordingLogger(lines: string[]): Logger {
  const log: Logger = {
    ...silentLogger,
    warn: (a: object | string, b?: string) => lines.push(`warn ${typeof a === 'string' ? a : b}`),
    error: (a: object | string, b?: string) => lines.push(`error ${typeof a === 'string' ? a : b}`),
    child: () => log,
  };
  return log;
}

t.test('a part that fails or hangs on start never stops or delays the hub for long', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-hub-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const lines: string[] = [];
  const stopped: string[] = [];
  const failing: AnyIntegration = {
    name: 'failing',
    sections: {},
    create: () => ({
      name: 'failing',
      start: () => Promise.reject(new Error('bus missing')),
      stop: async () => {
        stopped.push('failing');
      },
    }),
  };
  const hanging: AnyIntegration = {
    name: 'hanging',
    sections: {},
    create: () => ({ name: 'hanging', start: () => new Promise(() => {}), stop: async () => void stopped.push('hanging') }),
  };
  const throwing: AnyIntegration = {
    name: 'throwing',
    sections: {},
    create: () => {
      throw new Error('bad wiring');
    },
  };
  const config = parseConfigText('virtual: []\n', null, SECTION_VALIDATORS);
  const hub = await Hub.start({
    config,
    dataDir,
    log: recordingLogger(lines),
    host: '127.0.0.1',
    port: 0,
    integrations: [failing, hanging, throwing, ...INTEGRATIONS],
    startTimeoutMs: 50,
  });
  t.equal(hub.core.runState, 'RUNNING');
  const res = await fetch(`http://127.0.0.1:${hub.port}/nope`);
  t.equal(res.status, 404, 'the API answers');
  t.match(lines.join('\n'), /failing is not started: failed to start: bus missing/);
  t.match(lines.join('\n'), /warn hanging is still starting: no start within 0\.05 s/);
  t.match(lines.join('\n'), /throwing is not started: could not be set up: bad wiring/);
  const note = hub.core.notifications.get('invalid_config')?.message ?? '';
  for (const named of [
    ' - failing: failed to start: bus missing',
    ' - hanging (still starting): ',
    ' - throwing: could not be set up: bad wiring',
  ]) {
    t.match(note, named, 'named in the invalid_config notification');
  }
  await hub.stop();
  await hub.stop();
  t.same(stopped.sort(), ['failing', 'hanging']);
  t.equal(hub.core.runState, 'STOPPED');
  await t.rejects(fetch(`http://127.0.0.1:${hub.port}/nope`), 'no longer listening');
});
