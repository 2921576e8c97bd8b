import t from 'tap';
import type { Context } from '../../src/core/context.js';
import { decodeChunk, encodeChunk, forEachInChunk, SeriesWriter } from '../../src/recorder/series.js';

t.test('contexts round-trip: hex ids as 16 bytes, any other id (a client’s own) as text, with user and parent', async (t) => {
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
