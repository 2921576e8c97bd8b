import t from 'tap';
import { FrameBuilder } from '../../../src/api/ws/frame-builder.js';
import { DEFAULT_WS_LIMITS, type WsLimits } from '../../../src/api/ws/limits.js';
import { CORK_BYTES, FlushScheduler, type FrameSink, Outbox, type SlowConsumer } from '../../../src/api/ws/outbox.js';
import { type Chunk, MessageRing } from '../../../src/api/ws/queue.js';
import { withDeadline } from './client.js';

/** Takes every waiting item out of a ring, as text. */
function drain(ring: MessageRing): string[] {
  const out: string[] = [];
  while (ring.length > 0) {
    const head = ring.firstHead() as Chunk;
    const tail = ring.firstTail();
    out.push((typeof head === 'string' ? head : Buffer.from(head).toString()) + (tail === undefined ? '' : Buffer.from(tail).toString()));
    ring.shift();
  }
  return out;
}

t.test('MessageRing is FIFO across wrap-around and growth, with sequence numbers', async (t) => {
  const ring = new MessageRing(64);
  const seqs: number[] = [];
  // Wrap the initial 16 slots a few times, then grow while wrapped.
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 10; i++) seqs.push(ring.push(`m${round}-${i}`));
    t.same(
      drain(ring),
      Array.from({ length: 10 }, (_, i) => `m${round}-${i}`),
    );
  }
  for (let i = 0; i < 12; i++) ring.push(`a${i}`);
  for (let i = 0; i < 6; i++) ring.shift();
  for (let i = 0; i < 40; i++) ring.push(Buffer.from(`b${i}:`), Buffer.from(`${i}}`));
  t.equal(ring.length, 46);
  t.equal(ring.capacity, 64);
  t.same(drain(ring), [...Array.from({ length: 6 }, (_, i) => `a${i + 6}`), ...Array.from({ length: 40 }, (_, i) => `b${i}:${i}}`)]);
  t.same(seqs.slice(0, 3), [0, 1, 2], 'sequence numbers count up from 0');
  t.equal(ring.byteLength, 0);
});

t.test('MessageRing stops at its hard capacity and counts bytes of heads and tails', async (t) => {
  const ring = new MessageRing(20);
  for (let i = 0; i < 19; i++) t.not(ring.push('xy'), -1);
  t.not(ring.push(Buffer.from('abc'), Buffer.from('7}')), -1);
  t.equal(ring.push('z'), -1, 'full');
  t.equal(ring.length, 20);
  t.equal(ring.byteLength, 19 * 2 + 5);
  ring.clear();
  t.equal(ring.length, 0);
  t.equal(ring.byteLength, 0);
  t.not(ring.push('again'), -1);
});

t.test('MessageRing replaces an item only while it waits', async (t) => {
  const ring = new MessageRing(16);
  const a = ring.push('a');
  const b = ring.push('bb');
  t.ok(ring.isWaiting(b));
  t.ok(ring.replace(b, Buffer.from('BB'), Buffer.from('BB')));
  t.equal(ring.byteLength, 5);
  t.equal(drain(ring).join('|'), 'a|BBBB');
  t.notOk(ring.isWaiting(a));
  t.notOk(ring.replace(a, 'late'), 'gone already');
  t.notOk(ring.isWaiting(b));
  const c = ring.push('c');
  t.equal(c, b + 1, 'sequence numbers keep counting after the ring empties');
});

t.test('MessageRing gives back a large array once drained', async (t) => {
  const ring = new MessageRing(16384);
  for (let i = 0; i < 5000; i++) ring.push('m');
  t.equal(ring.capacity, 8192);
  drain(ring);
  t.equal(ring.capacity, 16);
});

t.test('MessageRing keeps each item its own tail across many subscriptions, growth and replacement', async (t) => {
  const ring = new MessageRing(1000);
  const tails = Array.from({ length: 100 }, (_, i) => Buffer.from(`${i}}`));
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 300; i++) ring.push(`{"n":${i},"id":`, tails[(i * 7) % 100]);
    ring.replace(ring.push('{"r":0,"id":', tails[5]), '{"r":1,"id":', tails[99]);
    const out = drain(ring);
    t.equal(out.length, 301);
    t.ok(
      out.slice(0, 300).every((m, i) => m === `{"n":${i},"id":${(i * 7) % 100}}`),
      `round ${round}: every message with its tail`,
    );
    t.equal(out[300], '{"r":1,"id":99}');
  }
  // Subscriptions that come and go while the ring never empties: its table of tails is renumbered, not overrun.
  const busy = new MessageRing(16);
  busy.push('first', Buffer.from('a}'));
  for (let i = 0; i < 70_000; i++) {
    busy.push('m', Buffer.from(`${i}}`));
    busy.shift();
  }
  t.same(drain(busy), ['m69999}']);
  t.throws(() => new MessageRing(70_000), RangeError, 'tails are numbered in 16 bits: a ring holds fewer items');
});

/** A uWS socket stand-in whose buffer fills with every frame and empties when the test says so. */
class FakeSink implements FrameSink {
  frames: string[] = [];
  buffered = 0;
  corks = 0;
  send(message: Chunk): number {
    // uWS copies the bytes during send; so does this.
    this.frames.push(typeof message === 'string' ? message : Buffer.from(message).toString());
    this.buffered += message.length;
    return 1;
  }
  getBufferedAmount(): number {
    return this.buffered;
  }
  cork(cb: () => void): void {
    this.corks++;
    cb();
  }
}

function outbox(limits: Partial<WsLimits> = {}, scheduler = new FlushScheduler()) {
  const sink = new FakeSink();
  const dropped: SlowConsumer[] = [];
  let drained = 0;
  let onDrop: (info: SlowConsumer) => void = () => {};
  const firstDrop = new Promise<SlowConsumer>((resolve) => {
    onDrop = resolve;
  });
  const box = new Outbox(sink, { ...DEFAULT_WS_LIMITS, ...limits }, scheduler, {
    onSlowConsumer: (info) => {
      dropped.push(info);
      onDrop(info);
    },
    onDrained: () => drained++,
  });
  return { box, sink, dropped, firstDrop, drained: () => drained, scheduler };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

t.test('the outbox flushes once per turn, corked, in order', async (t) => {
  const { box, sink, drained } = outbox();
  box.push('{"a":1}');
  box.push('{"b":2}');
  t.same(sink.frames, [], 'nothing is sent synchronously');
  await nextTurn();
  t.same(sink.frames, ['{"a":1}', '{"b":2}']);
  t.equal(sink.corks, 1, 'one cork for the whole flush');
  t.equal(drained(), 1);
});

t.test('with coalescing, waiting messages go out as JSON array frames within the frame caps', async (t) => {
  const { box, sink } = outbox({ maxFrameMessages: 3, maxFrameBytes: 1000 });
  box.coalesce = true;
  // Whole messages and shared-head + tail ones mix freely.
  for (let i = 0; i < 7; i++) {
    if (i % 2 === 0) box.push(`{"n":${i}}`);
    else box.push(Buffer.from('{"n":'), Buffer.from(`${i}}`));
  }
  await nextTurn();
  t.same(sink.frames, ['[{"n":0},{"n":1},{"n":2}]', '[{"n":3},{"n":4},{"n":5}]', '{"n":6}']);
  t.same(
    sink.frames.flatMap((f) => {
      const v: unknown = JSON.parse(f);
      return Array.isArray(v) ? v : [v];
    }),
    Array.from({ length: 7 }, (_, n) => ({ n })),
  );
  sink.frames = [];
  box.push(`{"big":"${'x'.repeat(2000)}"}`);
  box.push('{"small":1}');
  await nextTurn();
  t.equal(sink.frames.length, 2, 'a message over the frame size goes alone');
});

t.test('the outbox stops at the high-water mark and resumes on drain', async (t) => {
  const { box, sink } = outbox({ sendHighWater: 100 });
  for (let i = 0; i < 10; i++) box.push(`{"pad":"${'x'.repeat(40)}"}`);
  await nextTurn();
  t.equal(sink.frames.length, 2, 'two 50-byte frames reach the mark');
  t.equal(box.pending, 8);
  box.onDrain();
  t.equal(sink.frames.length, 2, 'still over the mark: nothing more');
  sink.buffered = 0;
  box.onDrain();
  t.equal(sink.frames.length, 4);
  sink.buffered = 0;
  box.push('{"late":1}');
  await nextTurn();
  t.equal(sink.frames.length, 6, 'a scheduled flush also carries on');
});

t.test('a backlog leaves in cork-sized turns, so uWS never moves it into the socket buffer it keeps', async (t) => {
  const { box, sink } = outbox({ sendHighWater: 1024 * 1024 });
  const message = (i: number) => `{"i":${String(i).padStart(3, '0')},"pad":"${'x'.repeat(1000)}"}`;
  for (let i = 0; i < 40; i++) box.push(message(i));
  await nextTurn();
  const first = sink.frames.length;
  t.ok(first > 0 && first < 40, `part of the backlog went in the first cork (${first} of 40)`);
  t.ok(sink.buffered <= CORK_BYTES, `at most ${CORK_BYTES} bytes in one cork (${sink.buffered})`);
  t.equal(box.pending, 40 - first);
  const deadline = Date.now() + 5000;
  while (box.pending > 0 && Date.now() < deadline) await nextTurn();
  t.same(
    sink.frames,
    Array.from({ length: 40 }, (_, i) => message(i)),
    'the rest follows on the next turns, in order',
  );
  sink.frames = [];
  const big = `{"big":"${'y'.repeat(CORK_BYTES * 2)}"}`;
  box.push(big);
  box.push('{"after":1}');
  await nextTurn();
  t.same(sink.frames, [big], 'a single larger message still goes at once, alone');
  await nextTurn();
  t.same(sink.frames, [big, '{"after":1}']);
});

t.test('the frame builder encodes a shared text head once and copies it for every subscriber', async (t) => {
  const frames = new FrameBuilder();
  const frame = (head: string, tail: string) => {
    frames.reset();
    frames.append(head, Buffer.from(tail));
    return Buffer.from(frames.view()).toString();
  };
  const head = `{"type":"event","event":{"state":"caf\u00e9 é☃"},"id":`;
  t.equal(frame(head, '1}'), `${head}1}`);
  t.equal(frame(head, '22}'), `${head}22}`, 'the remembered bytes, with another tail');
  // Same length, other text: never taken for the remembered one.
  const other = head.replace('caf', 'cab');
  t.equal(frame(other, '3}'), `${other}3}`);
  // More heads than are remembered, then the first ones again.
  const many = Array.from({ length: 40 }, (_, i) => `{"n":${i},"x":"${'z'.repeat(i)}"}`);
  for (const m of many) t.equal(frame(m, ''), m);
  for (const m of many.slice(0, 5)) t.equal(frame(m, ''), m);
  t.equal(frame(head, '4}'), `${head}4}`);
  // In a coalesced frame as well.
  frames.reset();
  frames.open();
  frames.append(head, Buffer.from('5}'));
  frames.comma();
  frames.append(head, Buffer.from('6}'));
  frames.close();
  t.equal(Buffer.from(frames.view()).toString(), `[${head}5},${head}6}]`);
  // Views of one length are handed out again (one per subscriber was an allocation each): each still shows
  // the frame built last, also once the builder grew its buffer for a large frame and gave it back.
  const big = `{"big":"${'b'.repeat(2 * 1024 * 1024)}"}`;
  t.equal(frame(big, '').length, big.length);
  t.equal(frame(head, '7}'), `${head}7}`);
  t.equal(frame(head, '8}'), `${head}8}`);
});

t.test('too many pending messages or bytes drop the client once, and nothing more is accepted', async (t) => {
  const many = outbox({ maxPending: 5, sendHighWater: 0 });
  for (let i = 0; i < 5; i++) t.not(many.box.push('m'), -1);
  t.equal(many.box.push('m'), -1);
  t.equal(many.box.push('m'), -1);
  t.equal(many.dropped.length, 1);
  t.match(many.dropped[0], { reason: /Reached 5 pending messages/, pending: 5 });

  const bytes = outbox({ maxPendingBytes: 10, sendHighWater: 0 });
  t.not(bytes.box.push('x'.repeat(50)), -1, 'one big message into an empty queue is accepted');
  t.equal(bytes.box.push('y'), -1);
  t.match(bytes.dropped[0], { reason: /Reached 10 pending bytes/, pending: 1, pendingBytes: 50 });
});

t.test('the peak timer drops a client that stays over the peak, not one that recovers', async (t) => {
  const stays = outbox({ pendingPeak: 3, pendingPeakMs: 50, sendHighWater: 0 });
  for (let i = 0; i < 4; i++) stays.box.push('m');
  const recovers = outbox({ pendingPeak: 3, pendingPeakMs: 50, sendHighWater: 0 });
  for (let i = 0; i < 4; i++) recovers.box.push('m');
  recovers.sink.buffered = -1_000_000; // lets everything out at the next flush
  // Same delay, started later: when it fires, any timer of `recovers` would have fired too.
  const later = outbox({ pendingPeak: 3, pendingPeakMs: 50, sendHighWater: 0 });
  for (let i = 0; i < 4; i++) later.box.push('m');
  await nextTurn();
  t.equal(recovers.box.pending, 0);
  t.match(await withDeadline(stays.firstDrop, 2000, 'the peak timer'), { reason: /Stayed over 3 for 0.05 seconds/ });
  await withDeadline(later.firstDrop, 2000, 'the later peak timer');
  t.equal(recovers.dropped.length, 0, 'the recovered client was kept');
});

t.test('the scheduler sends a lone message at once and batches a stream per interval', async (t) => {
  const scheduler = new FlushScheduler(40);
  t.teardown(() => scheduler.stop());
  const { box, sink } = outbox({}, scheduler);
  box.push('{"first":1}');
  await nextTurn();
  t.same(sink.frames, ['{"first":1}'], 'the first goes out on the next turn');
  const flushed = new Promise<void>((resolve) => {
    const original = box.flush.bind(box);
    box.flush = () => {
      original();
      resolve();
    };
  });
  box.push('{"second":2}');
  await nextTurn();
  t.equal(sink.frames.length, 1, 'within the interval the next one waits');
  box.push('{"third":3}');
  await withDeadline(flushed, 2000, 'the interval flush');
  t.same(sink.frames.slice(1), ['{"second":2}', '{"third":3}']);
  t.equal(sink.corks, 2, 'both in one corked write');
});
