import t from 'tap';
import type { Component } from '../../src/core/component.js';
import { ComponentStartError, Lifecycle } from '../../src/core/lifecycle.js';
import { memoryLogger } from '../helpers/logger.js';

/** A component that records its start and stop in a shared journal; `start`/`stop` override what each does. */
function part(journal: string[], name: string, extra: Partial<Component> = {}): Component {
  return {
    name,
    start: async () => {
      journal.push(`start ${name}`);
    },
    stop: async () => {
      journal.push(`stop ${name}`);
    },
    ...extra,
  };
}

const never = () => new Promise<void>(() => {});

t.test('starts the list forward and stops it backward, once', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lifecycle = new Lifecycle([part(journal, 'storage'), part(journal, 'http'), part(journal, 'drivers')], { log });
  await lifecycle.start();
  await Promise.all([lifecycle.stop(), lifecycle.stop()]);
  t.same(journal, ['start storage', 'start http', 'start drivers', 'stop drivers', 'stop http', 'stop storage']);
});

t.test('an optional component that fails is logged once with its name; the rest start', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lines = log.entries;
  const broken = part(journal, 'drivers', {
    optional: true,
    start: async () => {
      throw new Error('no bus');
    },
  });
  const lifecycle = new Lifecycle([part(journal, 'storage'), broken, part(journal, 'automations')], { log });
  await lifecycle.start();
  t.same(journal, ['start storage', 'start automations']);
  const errors = lines.filter((l) => l.level === 'error');
  t.equal(errors.length, 1);
  t.match(errors[0]?.msg, /^drivers failed to start/);
  await lifecycle.stop();
  t.same(journal.slice(2), ['stop automations', 'stop drivers', 'stop storage'], 'a failed optional component is still stopped');
});

t.test('an optional component past its start deadline does not hold up the rest', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lines = log.entries;
  const slow = part(journal, 'drivers', { optional: true, start: never });
  const lifecycle = new Lifecycle([slow, part(journal, 'automations')], { log, startDeadlineMs: 20 });
  await lifecycle.start();
  t.same(journal, ['start automations']);
  t.match(lines.find((l) => l.level === 'warn')?.msg, /drivers is still starting after 0.02 s/);
  await lifecycle.stop();
});

t.test('a required component that fails stops what started, in reverse, and rejects with its error', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lines = log.entries;
  const failure = new Error('port 8123 in use');
  const http = part(journal, 'http', {
    start: async () => {
      throw failure;
    },
  });
  const lifecycle = new Lifecycle([part(journal, 'storage'), part(journal, 'auth'), http, part(journal, 'drivers')], { log });
  await t.rejects(lifecycle.start(), failure);
  t.same(journal, ['start storage', 'start auth', 'stop http', 'stop auth', 'stop storage'], 'drivers never start');
  t.match(lines.find((l) => l.level === 'error')?.msg, /^http failed to start/);
});

t.test('a required component past its start deadline fails the start, naming it', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lifecycle = new Lifecycle([part(journal, 'storage'), part(journal, 'registries', { start: never })], { log, startDeadlineMs: 20 });
  const err = await lifecycle.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof ComponentStartError);
  t.equal((err as ComponentStartError).component, 'registries');
  t.match((err as Error).message, /registries failed to start: did not start within 0.02 s/);
  t.same(journal, ['start storage', 'stop registries', 'stop storage']);
});

t.test('stop never throws and a hung stop is cut off at its deadline; the rest still stop', async (t) => {
  const journal: string[] = [];
  const log = memoryLogger();
  const lines = log.entries;
  const hung = part(journal, 'http', { stop: never });
  const failing = part(journal, 'auth', {
    stop: async () => {
      throw new Error('disk gone');
    },
  });
  const lifecycle = new Lifecycle([part(journal, 'storage'), failing, hung], { log, stopDeadlineMs: 20 });
  await lifecycle.start();
  await lifecycle.stop();
  t.same(
    journal.filter((j) => j.startsWith('stop')),
    ['stop storage'],
  );
  const errors = lines.filter((l) => l.level === 'error').map((l) => l.msg);
  t.match(errors, [/http did not stop within 0.02 s/, /auth failed to stop cleanly/]);
});
