import t from 'tap';
import { HeadSlab } from '../../../src/api/ws/head-slab.js';
import { EventMessageCache } from '../../../src/api/ws/messages.js';
import { MessageRing } from '../../../src/api/ws/queue.js';

const text = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());

t.test('a head is written once into the slab and counted for each queue that holds it', async (t) => {
  const slab = new HeadSlab();
  const head = slab.intern('{"type":"event","event":{"a":"é"},"id":');
  t.type(head, Uint8Array);
  t.equal(text(head), '{"type":"event","event":{"a":"é"},"id":');
  const rings = [new MessageRing(8, slab), new MessageRing(8, slab)];
  for (const ring of rings) ring.push(head, Buffer.from('1}'));
  t.equal(slab.held, 3, 'the caller and two queues');
  rings[0]?.shift();
  rings[1]?.clear();
  slab.release(head);
  t.equal(slab.held, 0);
});

t.test('a segment still held by a queue is never written over: heads stay strings until it is let go', async (t) => {
  const slab = new HeadSlab(8);
  const ring = new MessageRing(60_000, slab);
  const big = `{"x":"${'y'.repeat(8000)}","id":`;
  // 8 segments of 128 KB: 16 heads of about 8 KB fill one.
  const held: (string | Uint8Array)[] = [];
  for (let i = 0; i < 8 * 16; i++) {
    const head = slab.intern(big);
    ring.push(head);
    slab.release(head);
    held.push(head);
  }
  t.ok(
    held.every((h) => typeof h !== 'string'),
    'the slab took every head while it had room',
  );
  const overflow = slab.intern(big);
  t.equal(overflow, big, 'no room: the string itself');
  ring.shift();
  t.equal(slab.intern(big), big, 'a segment is reused only once nothing in it is held');
  for (let i = 1; i < 16; i++) ring.shift();
  const reused = slab.intern(big);
  t.type(reused, Uint8Array, 'the first segment is free again');
  t.equal(text(held[16] as Uint8Array), big, 'the heads still waiting are intact');
  t.equal(slab.intern('x'.repeat(20_000)), 'x'.repeat(20_000), 'a head over 16 KB stays a string');
});

t.test('the event cache holds its current head in the slab and lets go of the previous one', async (t) => {
  const slab = new HeadSlab();
  const cache = new EventMessageCache(slab);
  const event = (n: number) => ({ json: `{"n":${n}}` }) as never;
  const first = event(1);
  const a = cache.headFor(first);
  t.equal(cache.headFor(first), a, 'the same event, the same bytes');
  t.equal(text(a), '{"type":"event","event":{"n":1},"id":');
  t.equal(slab.held, 1);
  cache.headFor(event(2));
  t.equal(slab.held, 1, 'only the current head is held');
});

t.test('what lagging queues wrote of the slab is given back once they let go', async (t) => {
  const slab = new HeadSlab(8);
  const ring = new MessageRing(1000, slab);
  const big = `{"x":"${'y'.repeat(8000)}","id":`;
  // Six segments' worth of heads held by one lagging queue.
  for (let i = 0; i < 6 * 16; i++) {
    const head = slab.intern(big);
    ring.push(head, Buffer.from(`${i}}`));
    slab.release(head);
  }
  t.equal(slab.segmentsInUse, 6);
  // It sends the first four segments' heads; new heads go into the lowest free segment meanwhile.
  for (let i = 0; i < 4 * 16; i++) ring.shift();
  const next = slab.intern(big);
  ring.push(next, Buffer.from('x}'));
  slab.release(next);
  t.equal(slab.segmentsInUse, 6, 'the top segments are still held');
  t.equal(text(ring.firstHead() as Uint8Array) + text(ring.firstTail() as Uint8Array), `${big}64}`, 'the waiting heads are intact');
  for (let i = 0; i < 2 * 16; i++) ring.shift();
  t.equal(slab.segmentsInUse, 2, 'caught up: the slab shrinks back to the segments it goes round in');
  t.equal(text(ring.firstHead() as Uint8Array), big, 'the head written meanwhile is intact');
  t.equal(slab.held, 1);
  ring.shift();
  for (let i = 0; i < 10 * 16; i++) slab.release(slab.intern(big));
  t.equal(slab.segmentsInUse, 2, 'heads sent as they come use the first segments in turn');
});
