import { Writable } from 'node:stream';
import t from 'tap';
import { formatLogMessage, templateText } from '../../src/util/log-bounds.js';
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

/** A manual clock and timer for the rate limit's window. */
function manualRate(): { now: () => number; timeout: (fn: () => void, ms: number) => void; advance(ms: number): void } {
  let t = 1_000_000;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    timeout: (fn, ms) => {
      timers.push({ at: t + ms, fn });
    },
    advance(ms) {
      t += ms;
      for (const due of timers.filter((x) => x.at <= t)) {
        timers.splice(timers.indexOf(due), 1);
        due.fn();
      }
    },
  };
}

const ids = Array.from({ length: 10_000 }, (_, i) => `light.missing_${i}`);

t.test('a line naming 10,000 ids carries the first ten and how many more, in the message and in the fields', async (t) => {
  const { lines, destination } = capture();
  const { log } = createLogger({ destination });
  log.warn({ entity_id: ids }, 'Referenced entities %s are missing or not currently available', ids);
  t.equal(lines.length, 1);
  const line = lines[0] as string;
  t.ok(line.length < 2048, `one line of ${line.length} characters`);
  const record = JSON.parse(line) as { msg: string; entity_id: string[] };
  t.match(
    record.msg,
    /^Referenced entities light\.missing_0, light\.missing_1, .*light\.missing_9 and 9990 more are missing or not currently available$/,
  );
  t.equal(record.entity_id.length, 11);
  t.equal(record.entity_id[10], '… and 9990 more');
});

t.test('long strings, deep or wide objects and huge error messages are cut with a count', async (t) => {
  const { lines, destination } = capture();
  const { log, errorLog } = createLogger({ destination });
  const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
  log.warn({ payload: 'x'.repeat(100_000), wide }, 'payload %s not understood', 'y'.repeat(100_000));
  log.error({ err: new Error(`bad ${'z'.repeat(1_000_000)}`) }, 'handler failed');
  log.error(new Error(`bare ${'q'.repeat(1_000_000)}`));
  const [warn, error, bare] = lines.map((l) => JSON.parse(l) as Record<string, unknown>) as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];
  t.ok(
    lines.every((l) => l.length < 8192),
    `lines of ${lines.map((l) => l.length).join(', ')} characters`,
  );
  t.match(warn.payload, /^x{300}… \(99700 more characters\)$/);
  t.match(warn.msg, /^payload y{300}… \(99700 more characters\) not understood$/);
  t.equal(Object.keys(warn.wide as object).length, 31, 'thirty keys and a count of the rest');
  t.equal((warn.wide as Record<string, string>)['…'], '970 more keys');
  const err = error.err as { message: string; stack: string };
  t.match(err.message, /more characters\)$/);
  t.ok(err.stack.includes('more characters)') && err.stack.includes('at '), 'the stack keeps its frames after the cut message');
  t.ok(String(bare.msg).length < 1100, 'a bare error gives a bounded message');
  t.ok(errorLog.text().length < 8192);
});

t.test('a key from outside such as __proto__ among the fields is logged as a plain key', async (t) => {
  const { lines, destination } = capture();
  const { log } = createLogger({ destination });
  const fields = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "c", "toString": "t"}') as object;
  log.warn(fields, 'odd keys');
  const record = JSON.parse(lines[0] as string) as Record<string, unknown>;
  t.same(
    Object.getOwnPropertyNames(record).filter((k) => k !== 'level' && k !== 'time' && k !== 'msg'),
    ['__proto__', 'constructor', 'toString'],
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('repeated warnings of one kind are rate-limited and summed up with a count when the minute ends', async (t) => {
  const { lines, destination } = capture();
  const clock = manualRate();
  const { log } = createLogger({ destination, rate: { now: clock.now, timeout: clock.timeout } });
  const api = log.child({ module: 'api' });
  for (let i = 0; i < 500; i++)
    api.warn({ entity_id: [`light.x${i}`] }, 'Referenced entities %s are missing or not currently available', [`light.x${i}`]);
  for (let i = 0; i < 5; i++) api.warn({}, 'another kind of warning %d', i);
  t.equal(lines.length, 15, 'ten of the first kind and the five of the other');
  t.equal(JSON.parse(lines[9] as string).msg, 'Referenced entities light.x9 are missing or not currently available');
  clock.advance(60_000);
  t.equal(lines.length, 16);
  const summary = JSON.parse(lines[15] as string) as { level: number; module: string; msg: string; suppressed: number };
  t.same(
    { level: summary.level, module: summary.module, suppressed: summary.suppressed, msg: summary.msg },
    {
      level: 40,
      module: 'api',
      suppressed: 490,
      msg: '… and 490 more like this in the last minute: Referenced entities … are missing or not currently available',
    },
  );
  api.warn({}, 'Referenced entities %s are missing or not currently available', ['light.y']);
  t.equal(lines.length, 17, 'a new minute lets the kind through again');
});

t.test('without a timer, the summary comes before the first line of the next minute, or at flush (exit)', async (t) => {
  const { lines, destination } = capture();
  const clock = manualRate();
  const { log, flush } = createLogger({ destination, rate: { now: clock.now, timeout: () => {} } });
  for (let i = 0; i < 12; i++) log.error({}, 'disk %s refuses', 'sda');
  t.equal(lines.length, 10);
  clock.advance(60_000);
  log.error({}, 'disk %s refuses', 'sdb');
  t.match(JSON.parse(lines[10] as string), { level: 50, suppressed: 2, msg: '… and 2 more like this in the last minute: disk … refuses' });
  t.match(JSON.parse(lines[11] as string), { msg: 'disk sdb refuses' });
  for (let i = 0; i < 12; i++) log.error({}, 'disk %s refuses', 'sdc');
  flush();
  t.match(JSON.parse(lines.at(-1) as string), { suppressed: 3 });
});

t.test('lines that are each a kind of their own share one allowance once the table of kinds is full', async (t) => {
  const { lines, destination } = capture();
  const clock = manualRate();
  const { log } = createLogger({ destination, rate: { now: clock.now, timeout: clock.timeout, maxKinds: 20 } });
  for (let i = 0; i < 1000; i++) log.warn(`unique message ${i}`);
  t.equal(lines.length, 30, 'twenty kinds, then ten of the shared allowance');
  clock.advance(60_000);
  t.match(JSON.parse(lines[30] as string), {
    suppressed: 970,
    msg: '… and 970 more like this in the last minute: log lines of other kinds',
  });
});

t.test('info lines of one kind have a larger allowance (a line per device at start-up)', async (t) => {
  const { lines, destination } = capture();
  const { log } = createLogger({ destination, rate: { now: () => 0, timeout: () => {} } });
  for (let i = 0; i < 150; i++) log.info({}, 'configured %s', `device ${i}`);
  t.equal(lines.length, 100);
});

t.test('a configured name put into a template keeps its % signs; values go where the placeholders are', async (t) => {
  const { lines, destination } = capture();
  const { log } = createLogger({ destination });
  log.warn({}, `${templateText('Dimmer 100%s')} is unavailable: %s`, 'timeout');
  t.equal((JSON.parse(lines[0] as string) as { msg: string }).msg, 'Dimmer 100%s is unavailable: timeout');
  t.equal(formatLogMessage('%d%% of %s', [50, 'it']), '50% of it');
});
