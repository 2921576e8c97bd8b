import t from 'tap';
import { ChunkCache } from '../../src/recorder/chunk-cache.js';

t.test('the chunk cache keeps the most recently used chunks within its bytes', async (t) => {
  const cache = new ChunkCache(100);
  const chunk = (n: number) => Buffer.alloc(n);
  cache.put('a', chunk(20));
  cache.put('b', chunk(20));
  cache.put('c', chunk(20));
  t.equal(cache.bytes, 60);
  t.ok(cache.get('a'), 'a is used again, so b is now the oldest');
  cache.put('d', chunk(20));
  cache.put('e', chunk(24));
  t.equal(cache.bytes, 84, 'over 100 the oldest go first');
  t.equal(cache.get('b'), undefined);
  t.ok(cache.get('a'));
  t.ok(cache.get('e'));
  cache.put('big', chunk(25));
  t.equal(cache.get('big'), undefined, 'a chunk of a quarter of the bound or more is not kept');
  t.equal(cache.bytes, 84);
  cache.clear();
  t.equal(cache.bytes, 0);
  t.equal(cache.get('a'), undefined);
});
