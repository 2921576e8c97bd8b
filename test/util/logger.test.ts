import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger } from '../../src/util/logger.js';

/** A class whose constructor's name is not the error's, as the shipped bundle shortens class names. */
class Xq extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A destination that keeps every line pino writes. */
function capture(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, destination };
}

t.test("a logged error's type is its name, in the JSON line and in /api/error_log", async (t) => {
  const { lines, destination } = capture();
  const { log, errorLog } = createLogger({ destination });
  log.error({ err: new Xq('bad key') }, 'configuration refused');
  log.error({ err: new TypeError('not a function') }, 'driver failed');
  const written = await new Promise<string[]>((resolve) => setImmediate(() => resolve(lines)));
  const types = written.map((l) => (JSON.parse(l) as { err: { type: string } }).err.type);
  t.same(types, ['ConfigError', 'TypeError']);
  t.match(errorLog.text(), /configuration refused: ConfigError: bad key\n.*driver failed: TypeError: not a function\n$/);
});

t.test('a value under err that is not an error is logged as it is', async (t) => {
  const { lines, destination } = capture();
  const { log } = createLogger({ destination });
  log.warn({ err: { code: 'EIO' } }, 'odd');
  await new Promise((resolve) => setImmediate(resolve));
  t.same((JSON.parse(lines[0] as string) as { err: unknown }).err, { code: 'EIO' });
});
