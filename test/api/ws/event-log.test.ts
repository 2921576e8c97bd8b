import t from 'tap';
import { EventLog } from '../../../src/api/ws/event-log.js';
import { HeadSlab } from '../../../src/api/ws/head-slab.js';
import { type Chunk, MessageRing } from '../../../src/api/ws/queue.js';

const text = (chunk: Chunk | undefined): string => (typeof chunk === 'string' ? chunk : Buffer.from(chunk ?? []).toString());

/** Takes every waiting item out of a ring, as text. */
function drain(ring: MessageRing, n = ring.length): string[] {
  const out: string[] = [];
  for (let k = 0; k < n && ring.length > 0; k++) {
    const tail = ring.firstTail();
    out.push(text(ring.firstHead()) + (tail === undefined ? '' : Buffer.from(tail).toString()));
    ring.shift();
  }
  return out;
}

t.test('events of the log wait in a queue as runs: one slot for any number, in order with other messages', async (t) => {
  const log = new EventLog(4096);
  const ring = new MessageRing(16_384, undefined, log);
  const a = Buffer.from('1}');
  const b = Buffer.from('2}');
  const expected: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const head = `{"e":${i},"id":`;
    log.append(head);
    ring.push(head, a);
    ring.push(head, b);
    expected.push(`${head}1}`, `${head}2}`);
  }
  // Two subscriptions of one connection alternate, so every event takes a slot per subscription...
  t.equal(ring.slotCount, 2000);
  ring.clear();
  expected.length = 0;
  // ...while one subscription's events, with a result between them, take three slots.
  const seqs: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const head = `{"e":${i},"id":`;
    log.append(head);
    if (i === 500) {
      seqs.push(ring.push('{"id":7,"type":"result"}'));
      expected.push('{"id":7,"type":"result"}');
    }
    seqs.push(ring.push(head, a));
    expected.push(`${head}1}`);
  }
  t.equal(ring.length, 1001);
  t.equal(ring.slotCount, 3, 'a run, the result, a run');
  t.equal(ring.capacity, 16, 'no growth');
  t.same(seqs.slice(0, 3), [2000, 2001, 2002], 'sequence numbers count messages, not slots');
  t.equal(ring.byteLength, expected.join('').length);
  t.notOk(ring.replace(seqs[10] as number, 'x'), 'an event of the log is never replaced');
  t.ok(ring.replace(seqs[500] as number, '{"id":7,"type":"result","n":2}'), 'the result between the runs is');
  expected[500] = '{"id":7,"type":"result","n":2}';
  t.same(drain(ring, 600), expected.slice(0, 600));
  t.same(drain(ring), expected.slice(600));
  t.equal(ring.byteLength, 0);
  t.equal(log.length, 1, 'everything sent: only the newest event is kept');
});

t.test('the log lets go of its oldest events once no queue holds them, and its slab bytes with them', async (t) => {
  const slab = new HeadSlab(4);
  const log = new EventLog(64, slab);
  const fast = new MessageRing(1000, slab, log);
  const slow = new MessageRing(1000, slab, log);
  const tail = Buffer.from('1}');
  for (let i = 0; i < 40; i++) {
    const head = slab.intern(`{"e":${i},"id":`);
    log.append(head);
    slab.release(head);
    fast.push(head, tail);
    slow.push(head, tail);
  }
  t.equal(slab.held, 40, 'each event held once, by the log');
  drain(fast);
  t.equal(log.length, 40, 'the slow queue still holds them all');
  t.same(
    drain(slow, 25),
    Array.from({ length: 25 }, (_, i) => `{"e":${i},"id":1}`),
  );
  t.equal(log.length, 15);
  t.equal(slab.held, 15);
  slow.clear();
  t.equal(log.length, 1, 'the newest is kept until the next append');
  t.equal(slab.held, 1);
  log.append(slab.intern('{"e":40,"id":'));
  t.equal(log.length, 1);
});

t.test('a full log keeps nothing more: queues hold those events in slots of their own, and lose none', async (t) => {
  const log = new EventLog(8);
  const slow = new MessageRing(100, undefined, log);
  const tail = Buffer.from('3}');
  const expected: string[] = [];
  for (let i = 0; i < 20; i++) {
    const head = `{"e":${i},"id":`;
    log.append(head);
    slow.push(head, tail);
    expected.push(`${head}3}`);
  }
  t.equal(log.length, 8);
  t.equal(slow.slotCount, 1 + 12, 'one run of the eight the log kept, then a slot each');
  t.same(drain(slow), expected);
  log.append('{"e":20,"id":');
  t.equal(log.length, 1);
});

t.test('positions run on past the log size and its shrinking, in order', async (t) => {
  const log = new EventLog(2048);
  const ring = new MessageRing(4096, undefined, log);
  const tail = Buffer.from('1}');
  for (let round = 0; round < 3; round++) {
    const expected: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const head = `{"r":${round},"e":${i},"id":`;
      log.append(head);
      ring.push(head, tail);
      expected.push(`${head}1}`);
    }
    t.equal(log.length, 1500);
    t.same(drain(ring), expected, `round ${round}`);
    t.equal(log.length, 1);
  }
  t.throws(() => new EventLog(1), RangeError);
});
