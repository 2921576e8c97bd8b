import t from 'tap';
import type { Logger } from '../../src/core/log.js';
import { startTestHub } from '../helpers/hub.js';

/** Runs until any deadline stops it: 10^10 loop turns. */
const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';

const CONFIG = `
hub:
  name: Test Home
  time_zone: Europe/Amsterdam
automation:
  - id: hostile
    alias: Hostile
    triggers:
      - trigger: event
        event_type: poke
    conditions: "{% if trigger.event.data.slow %}${HOSTILE}{% endif %}true"
    actions:
      - event: poked
  - id: hostile_step
    alias: Hostile step
    mode: queued
    triggers:
      - trigger: event
        event_type: prod
    actions:
      - event: prodded
        event_data:
          n: "{% if trigger.event.data.slow %}${HOSTILE}{% endif %}1"
script:
  hostile_script:
    sequence:
      - variables:
          n: "{% if slow %}${HOSTILE}{% endif %}1"
`;

interface Line {
  readonly level: string;
  readonly msg: string;
}

/** Every line at every level (debug too: the budget's errors go there), and a wait for one with a deadline. */
function allLines(): Logger & { lines: Line[]; waitFor(pattern: RegExp, ms: number): Promise<Line> } {
  const lines: Line[] = [];
  let waiters: (() => void)[] = [];
  // A line's values go into its %s placeholders (log lines built from input pass it as values).
  const at =
    (level: string) =>
    (a: object | string, b?: string, ...values: unknown[]) => {
      let i = 0;
      const text = typeof a === 'string' ? a : (b ?? '');
      lines.push({ level, msg: text.replace(/%[sdj]/g, (m) => (i < values.length ? String(values[i++]) : m)) });
      const w = waiters;
      waiters = [];
      for (const fn of w) fn();
    };
  const log = {
    lines,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => log,
    waitFor(pattern: RegExp, ms: number): Promise<Line> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line matching ${pattern} within ${ms} ms`)), ms);
        const check = (): void => {
          const found = lines.find((l) => pattern.test(l.msg));
          if (found === undefined) waiters.push(check);
          else {
            clearTimeout(timer);
            resolve(found);
          }
        };
        check();
      });
    },
  };
  return log;
}

t.test(
  'an automation whose template runs to the deadline, triggered again and again, is suspended once and costs nothing after',
  async (t) => {
    const log = allLines();
    const th = await startTestHub(t, { yaml: CONFIG, log });
    const poke = (slow: boolean) =>
      th.api('/api/events/poke', { method: 'POST', body: JSON.stringify({ slow }), headers: { 'content-type': 'application/json' } });
    // Twenty triggers, each followed by an ordinary request, which is answered every time.
    for (let i = 0; i < 20; i++) {
      t.equal((await poke(true)).status, 200);
      t.equal((await th.api('/api/states')).status, 200);
    }
    const warning = await log.waitFor(/automation\.hostile.*suspended/, 10_000);
    t.equal(warning.level, 'warn');
    t.match(warning.msg, /suspended until the automation is reloaded \(automation\.reload\)/);
    // One more round of triggers after the warning, to count what they all cost.
    for (let i = 0; i < 5; i++) t.equal((await poke(true)).status, 200);
    await log.waitFor(/TimeoutError: suspended/, 5000);
    const stopped = log.lines.filter((l) => /rendering took longer than 20 ms/.test(l.msg));
    t.ok(stopped.length <= 2, `of 25 triggers, ${stopped.length} rendered to the deadline (two in a row suspend it)`);
    const loud = log.lines.filter((l) => (l.level === 'warn' || l.level === 'error') && /automation|template/i.test(l.msg));
    t.same(
      loud.map((l) => l.msg),
      [warning.msg],
      'one warning, no other warning or error about it',
    );

    // A reload makes it again: its templates render, and a fast one passes.
    const poked = new Promise<void>((resolve) => th.hub.core.bus.on('test', 'poked', () => resolve()));
    t.equal((await th.api('/api/services/automation/reload', { method: 'POST', body: '{}' })).status, 200);
    t.equal((await poke(false)).status, 200);
    await poked;
    t.pass('after automation.reload it runs again');
  },
);

t.test('the steps of a run and the steps of a script are their automation’s and script’s source too', async (t) => {
  const log = allLines();
  const th = await startTestHub(t, { yaml: CONFIG, log });
  const post = (path: string, body: unknown) =>
    th.api(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  for (let i = 0; i < 5; i++) t.equal((await post('/api/events/prod', { slow: true })).status, 200);
  const warning = await log.waitFor(/automation\.hostile_step.*suspended/, 10_000);
  t.equal(warning.level, 'warn');
  for (let i = 0; i < 5; i++) await post('/api/services/script/turn_on', { entity_id: 'script.hostile_script', variables: { slow: true } });
  const scriptWarning = await log.waitFor(/script\.hostile_script.*suspended until the script is reloaded/, 10_000);
  t.equal(scriptWarning.level, 'warn');
});
