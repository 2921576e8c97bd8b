// The bundle's replacement of matter.js's DataWriter (scripts/matter-patches-report.mjs, in MATTER_PATCHES) against
// matter.js's own class: the same bytes for the same writes, whatever the sizes, values and order, and arrays taken
// midway unchanged by later writes; and of NodeActivity's actors (below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MATTER_PATCHES, patched } from '../../scripts/matter-patches.mjs';
import { packageRoot } from '../../src/util/paths.js';

const FILE = 'general/dist/esm/util/DataWriter.js';

interface Writer {
  readonly length: number;
  toByteArray(): Uint8Array;
  [method: string]: unknown;
}
type WriterClass = new (endian: number) => Writer;

const source = readFileSync(join(packageRoot(), 'node_modules', '@matter', FILE), 'utf8');
const patch = MATTER_PATCHES.find((p) => p.file === FILE);

/** A module of matter.js's dist as the body of a function that returns `exported`: what it imports is its parameters. */
function moduleBody(text: string, exported: string): string {
  return text
    .replace(/^import .*$/gm, '')
    .replace(/export \{[^}]*\};/, `return ${exported};`)
    .replace(/\/\/# sourceMappingURL.*$/m, '');
}

/** The module's text as a class, with what it imports given by hand (Endian.Little is 1; Bytes.of as matter.js has it). */
function classOf(text: string): WriterClass {
  const body = moduleBody(text, 'DataWriter');
  const bytesOf = (s: ArrayBufferView | ArrayBuffer): Uint8Array =>
    s instanceof Uint8Array ? s : ArrayBuffer.isView(s) ? new Uint8Array(s.buffer, s.byteOffset, s.byteLength) : new Uint8Array(s);
  const toNumber = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v);
  return new Function('Endian', 'Bytes', 'toNumber', body)({ Little: 1, Big: 0 }, { of: bytesOf }, toNumber) as WriterClass;
}

t.test('the patch still finds its text in matter.js', async (t) => {
  t.ok(patch, 'a MATTER_PATCHES entry for DataWriter.js');
  t.ok(patch !== undefined && source.includes(patch.from));
});

t.test('the replacement writes what matter.js wrote', async (t) => {
  if (patch === undefined) return;
  const Original = classOf(source);
  const Patched = classOf(source.replace(patch.from, patch.to));
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const ops: [string, () => unknown][] = [
    ['writeUInt8', () => Math.floor(random() * 300) - 20],
    ['writeUInt16', () => Math.floor(random() * 70_000) - 100],
    ['writeUInt32', () => (random() < 0.1 ? BigInt(Math.floor(random() * 2 ** 32)) : Math.floor(random() * 2 ** 33) - 5)],
    ['writeUInt64', () => BigInt(Math.floor(random() * 2 ** 53))],
    ['writeInt8', () => Math.floor(random() * 256) - 128],
    ['writeInt16', () => Math.floor(random() * 65_536) - 32_768],
    ['writeInt32', () => Math.floor(random() * 2 ** 32) - 2 ** 31],
    ['writeInt64', () => -BigInt(Math.floor(random() * 2 ** 53))],
    ['writeFloat', () => (random() - 0.5) * 1e6],
    ['writeDouble', () => (random() - 0.5) * 1e12],
    ['writeByteArray', () => Uint8Array.from({ length: Math.floor(random() * 90) }, () => Math.floor(random() * 256))],
  ];
  const differ: string[] = [];
  for (let round = 0; round < 300; round++) {
    const endian = round % 2;
    const a = new Original(endian);
    const b = new Patched(endian);
    const taken: [Uint8Array, Uint8Array][] = [];
    const count = Math.floor(random() * 60);
    for (let i = 0; i < count; i++) {
      const [method, value] = ops[Math.floor(random() * ops.length)] as [string, () => unknown];
      const v = value();
      (a[method] as (v: unknown) => void)(v);
      (b[method] as (v: unknown) => void)(v);
      if (random() < 0.05) taken.push([a.toByteArray().slice(), b.toByteArray()]);
    }
    taken.push([a.toByteArray(), b.toByteArray()]);
    if (b.length !== a.length || taken.some(([x, y]) => Buffer.compare(Buffer.from(x), Buffer.from(y)) !== 0))
      differ.push(`round ${round}`);
  }
  t.same(differ, [], 'the same bytes in every round');
});

// NodeActivity (report patches): its actors as instances of a class, against matter.js's object literals. The same
// script runs on both, with matter.js's Diagnostic and ObservableValue given by hand, and logs what a caller sees.
const ACTIVITY = 'node/dist/esm/behavior/context/NodeActivity.js';

function activityLog(text: string): string[] {
  const body = moduleBody(text, 'NodeActivity');
  const log: string[] = [];
  const value = Symbol('value');
  let started = 0;
  const Diagnostic = {
    value,
    elapsed: () => ({ startedAt: ++started }),
    list: (items: unknown[]) => items,
    weak: (s: string) => s,
  };
  const ObservableValue = (initial: boolean) => ({ value: initial, emit: (v: boolean) => log.push(`inactive ${v}`) });
  type Actor = { stack: string[]; elapsed: { startedAt: number }; close(): void; frame(d: string): { [Symbol.dispose](): void } } & Record<
    symbol,
    unknown
  >;
  const NodeActivity = new Function('Diagnostic', 'ObservableValue', body)(Diagnostic, ObservableValue) as new () => {
    begin(description: string, onClose?: () => void): Actor;
    readonly actors: Actor[];
    readonly [value]: unknown;
  };
  const activity = new NodeActivity();
  const a = activity.begin('a', () => log.push('a closed'));
  const b = activity.begin('b');
  const first = a.elapsed;
  log.push(`elapsed ${a.elapsed.startedAt} ${b.elapsed.startedAt} ${first === a.elapsed}`);
  const frame = a.frame('read');
  // What matter.js's diagnostics show of each actor: its Diagnostic.value.
  const shown = (): string =>
    JSON.stringify((activity[value] as Actor[]).map((actor) => (typeof actor === 'string' ? actor : actor[value])));
  log.push(`frames ${JSON.stringify(a[value])} actors ${activity.actors.length} ${shown()}`);
  frame[Symbol.dispose]();
  log.push(`frames ${JSON.stringify(a[value])} stack ${JSON.stringify(a.stack)}`);
  const close = a.close.bind(a);
  close();
  log.push(`actors ${activity.actors.length}`);
  (b[Symbol.dispose] as () => void)();
  log.push(`actors ${activity.actors.length} ${shown()}`);
  const c = activity.begin('c');
  c.close();
  c.close();
  return log;
}

t.test("NodeActivity's actors behave as matter.js's", async (t) => {
  const file = join(packageRoot(), 'node_modules', '@matter', ACTIVITY);
  const original = readFileSync(file, 'utf8');
  t.ok(
    MATTER_PATCHES.some((p) => p.file === ACTIVITY),
    'MATTER_PATCHES change NodeActivity.js',
  );
  // As the build applies them (it fails when one no longer finds its text).
  let changed = original;
  t.doesNotThrow(() => {
    changed = patched(file, original);
  }, 'each finds its text');
  t.not(changed, original);
  const expected = activityLog(original);
  t.same(activityLog(changed), expected);
  t.ok(expected.includes('inactive true') && expected.includes('a closed'), 'the script saw the activity end and onClose run');
});
