import type { JsonValue } from '../core/json.js';
import { checkConditions } from './conditions.js';
import { type Action, MAX_REPEAT_ITERATIONS, type RepeatLoop } from './model.js';
import { Halt, type Run, templateHalt } from './run.js';
import { renderComplex } from './templating.js';

/** Passed in by actions.ts, so the two modules do not import each other. */
export type RunSequence = (run: Run, actions: readonly Action[], path: string) => Promise<void>;

/** One event-loop turn between iterations: a loop of quick steps cannot starve sockets and timers. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type RepeatAction = Extract<Action, { kind: 'repeat' }>;

function renderedLoopValue(run: Run, value: JsonValue, what: string): unknown {
  try {
    return renderComplex(run.env.templates, value, run.variables, `${run.name} repeat ${what}`);
  } catch (err) {
    throw templateHalt(err, `Error rendering repeat ${what} template: `);
  }
}

function loopCount(run: Run, count: number | string): number {
  const value = typeof count === 'number' ? count : renderedLoopValue(run, count, 'count');
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new Halt('failed', `Error rendering repeat count template: expected a whole number, got ${JSON.stringify(value)}`);
  }
  if (n > MAX_REPEAT_ITERATIONS) {
    throw new Halt('failed', `Repeat count ${n} is more than the maximum of ${MAX_REPEAT_ITERATIONS} iterations`);
  }
  return Math.max(0, n);
}

function loopItems(run: Run, items: RepeatLoop & { type: 'for_each' }): readonly unknown[] {
  const value = renderedLoopValue(run, items.items, 'for_each');
  if (!Array.isArray(value)) throw new Halt('failed', `Repeat 'for_each' must be a list of items, got: ${JSON.stringify(value)}`);
  if (value.length > MAX_REPEAT_ITERATIONS) {
    throw new Halt('failed', `Repeat 'for_each' has ${value.length} items, more than the maximum of ${MAX_REPEAT_ITERATIONS}`);
  }
  return value;
}

/** A while/until loop that never ends is stopped with an error, logged once per automation or script. */
function runaway(run: Run, type: string): Halt {
  const message = `${type === 'while' ? 'While' : 'Until'} condition in ${run.name} terminated because it looped ${MAX_REPEAT_ITERATIONS} times`;
  return new Halt('failed', message, null, message);
}

/**
 * Runs a `repeat` action; `repeat` (index, first, last, item) is set per iteration and the outer one restored after.
 * `path` is the trace path of the loop (`action/0/repeat`): its steps are traced under `sequence`, its conditions
 * under `while`/`until`.
 */
export async function runRepeat(run: Run, action: RepeatAction, runSequence: RunSequence, path: string): Promise<void> {
  const hadOuter = Object.hasOwn(run.variables, 'repeat');
  const outer = run.variables.repeat;
  const iteration = async (index: number, extra: Record<string, unknown>) => {
    run.variables.repeat = { first: index === 1, index, ...extra };
    await runSequence(run, action.sequence, `${path}/sequence`);
    await nextTurn();
    run.checkAborted();
  };
  try {
    const { loop } = action;
    switch (loop.type) {
      case 'count': {
        const count = loopCount(run, loop.count);
        for (let index = 1; index <= count; index++) await iteration(index, { last: index === count });
        return;
      }
      case 'for_each': {
        const items = loopItems(run, loop);
        for (let i = 0; i < items.length; i++) await iteration(i + 1, { last: i === items.length - 1, item: items[i] });
        return;
      }
      case 'while':
        for (let index = 1; ; index++) {
          if (index > MAX_REPEAT_ITERATIONS) throw runaway(run, 'while');
          run.variables.repeat = { first: index === 1, index };
          if (!checkConditions(run.env, loop.conditions, run.scope(), `${path}/while`)) return;
          await iteration(index, {});
        }
      case 'until':
        for (let index = 1; ; index++) {
          if (index > MAX_REPEAT_ITERATIONS) throw runaway(run, 'until');
          await iteration(index, {});
          // As Home Assistant, a condition that cannot be evaluated (a template error) ends an until loop too.
          let failed = false;
          const onError = (message: string): void => {
            failed = true;
            run.reportError(message);
          };
          const scope = { ...run.scope(), onError };
          if (checkConditions(run.env, loop.conditions, scope, `${path}/until`) || failed) return;
        }
    }
  } finally {
    if (hadOuter) run.variables.repeat = outer;
    else delete run.variables.repeat;
  }
}

/**
 * Runs each branch at the same time with its own copy of the variables. As Home Assistant's asyncio.gather with
 * return_exceptions, every branch runs to its end; then the first failure (or stop) ends the run.
 */
export async function runParallel(run: Run, branches: readonly Action[], runSequence: RunSequence, path: string): Promise<void> {
  // Traced as Home Assistant does: a branch's actions under `parallel/<n>/sequence/<m>`.
  const results = await Promise.allSettled(
    branches.map((branch, i) =>
      branch.kind === 'sequence'
        ? runSequence(run.fork(), branch.actions, `${path}/${i}/sequence`)
        : runSequence(run.fork(), [branch], `${path}/${i}/sequence`),
    ),
  );
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}
