import t from 'tap';
import { JsonBytes } from '../../../src/api/history/json-bytes.js';

t.test('seconds are written as JavaScript would print them, digit by digit', async (t) => {
  for (const us of [0, 1, 1_000_000, 1_773_100_803_500_000, 1_773_100_800_000_001, 1_773_100_800_123_450, 999_999, 12_345_678_900]) {
    const out = new JsonBytes(4);
    out.seconds(us);
    t.equal(out.view().toString(), String(us / 1_000_000), String(us));
  }
  const odd = new JsonBytes();
  odd.seconds(-1.5);
  t.equal(odd.view().toString(), String(-1.5 / 1e6), 'not an integer: formatted the general way');
});

t.test('strings: plain ASCII copied, the rest escaped as JSON; growth keeps what was written', async (t) => {
  const out = new JsonBytes(2);
  for (const s of ['21.5', 'on', 'say "hi"', 'back\\slash', 'ünïcode', 'tab\there', '']) {
    out.jsonString(s);
    out.ascii(',');
  }
  out.repeated('{"a":1}');
  out.repeated('{"a":1}');
  out.utf8('é'.repeat(40));
  out.ascii('x'.repeat(100));
  out.bytes(Buffer.alloc(100, 0x79));
  t.equal(
    out.view().toString(),
    `"21.5","on","say \\"hi\\"","back\\\\slash","ünïcode","tab\\there","",{"a":1}{"a":1}${'é'.repeat(40)}${'x'.repeat(100)}${'y'.repeat(100)}`,
  );
});
