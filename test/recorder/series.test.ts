import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { type Context, createContext } from '../../src/core/context.js';
import { ByteWriter } from '../../src/recorder/bytes.js';
import { decodeChunk, encodeChunk, forEachInChunk, SeriesWriter } from '../../src/recorder/series.js';

function decoded(bytes: Uint8Array): (Context | null)[] {
  const seen: (Context | null)[] = [];
  forEachInChunk(decodeChunk(bytes), (_s, _a, _lc, _lu, ctx) => {
    seen.push(ctx);
  });
  return seen;
}

t.test('contexts round-trip: hex ids by their parts, any other id (a client’s own) as text, with user and parent', async (t) => {
  const contexts: (Context | null)[] = [
    { id: '0123456789abcdef0123456789abcdef', parent_id: null, user_id: null },
    { id: 'my-own-id', parent_id: 'fedcba9876543210fedcba9876543210', user_id: 'u1' },
    { id: '0123456789ABCDEF0123456789ABCDEF', parent_id: 'not hex either', user_id: null },
    { id: '0123456789abcdef0123456789abcdeg', parent_id: null, user_id: 'u2' },
    null,
  ];
  const w = new SeriesWriter();
  for (const [i, c] of contexts.entries()) w.append(String(i), '{}', 1000 + i, 1000 + i, c);
  const seen: (Context | null)[] = [];
  forEachInChunk(decodeChunk(encodeChunk(w)), (_s, _a, _lc, _lu, ctx) => {
    seen.push(ctx);
  });
  t.same(seen, contexts);
});

t.test('contexts made here, interleaved with others, round-trip; a call\u2019s context costs a few bytes', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 27) * 1000);
  const contexts: Context[] = [];
  const w = new SeriesWriter();
  const bare = new SeriesWriter();
  for (let i = 0; i < 200; i++) {
    clock.advance(1000 + (i % 5) * 250_000);
    const ctx =
      i % 50 === 7
        ? { id: '01890f3c2a7b4e5f9d8c7b6a5f4e3d2c', parent_id: null, user_id: null }
        : createContext(clock.now(), i % 3 === 0 ? 'u1' : null, i % 10 === 0 ? '01890f3c2a7b4e5f9d8c7b6a5f4e3d2c' : null);
    contexts.push(ctx);
    const ms = Math.floor(clock.now() / 1000) + (i % 4 === 0 ? 3 : 0);
    w.append(i % 2 ? 'on' : 'off', '{}', ms, ms, ctx);
    bare.append(i % 2 ? 'on' : 'off', '{}', ms, ms, null);
  }
  t.same(decoded(encodeChunk(w)), contexts);
  const perContext = (w.body.length - bare.body.length) / contexts.length;
  t.ok(perContext < 8, `${perContext.toFixed(1)} bytes a context (a parent, a foreign id and a user now and then)`);
});

t.test('chunks of version 1 (context ids as 16 bytes) are still read', async (t) => {
  const w = new ByteWriter(64);
  w.varint(1); // version
  w.varint(1); // count
  w.varint(5000); // first ms
  w.varint(5000); // last ms
  for (const dict of [['on'], ['{}'], ['u1']]) {
    w.varint(dict.length);
    for (const item of dict) w.string(item);
  }
  w.u8(0x75); // a text state, new attributes, a context
  w.varint(5000);
  w.varint(0); // "on"
  w.varint(0); // "{}"
  w.u8(1 | 2); // a user, a parent, the id as 16 bytes
  w.hex16('0123456789abcdef0123456789abcdef');
  w.varint(0); // "u1"
  w.hex16('fedcba9876543210fedcba9876543210');
  t.same(decoded(w.toBuffer()), [{ id: '0123456789abcdef0123456789abcdef', parent_id: 'fedcba9876543210fedcba9876543210', user_id: 'u1' }]);
});
