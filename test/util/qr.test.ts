import t from 'tap';
import { qrSvg } from '../../src/util/qr.js';

/** The dark modules of the SVG's path, as `x,y`. */
function darkModules(svg: string): Set<string> {
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  return new Set([...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${m[1]},${m[2]}`));
}

t.test('a HomeKit setup URI: a version 1 code with a quiet zone of four modules and the three finder patterns', async (t) => {
  const svg = await qrSvg('X-HM://0023ISYWY1234');
  t.match(svg, /viewBox="0 0 29 29"/, '21 modules and 4 light ones on each side');
  t.match(svg, /aria-label="HomeKit setup code"/);
  const dark = darkModules(svg);
  // A finder pattern: a 7x7 dark ring, a light ring, a 3x3 dark centre; at the top left, top right and bottom left.
  const corners: readonly (readonly [number, number])[] = [
    [4, 4],
    [18, 4],
    [4, 18],
  ];
  for (const [ox, oy] of corners) {
    for (let i = 0; i < 7; i++) {
      const ring: readonly (readonly [number, number])[] = [
        [ox + i, oy],
        [ox + i, oy + 6],
        [ox, oy + i],
        [ox + 6, oy + i],
      ];
      for (const [x, y] of ring) {
        t.ok(dark.has(`${x},${y}`), `finder ring at ${x},${y}`);
      }
    }
    t.notOk(dark.has(`${ox + 1},${oy + 1}`), 'light ring');
    t.ok(dark.has(`${ox + 3},${oy + 3}`), 'dark centre');
  }
  // Nothing dark in the quiet zone.
  t.notOk([...dark].some((xy) => xy.split(',').some((n) => Number(n) < 4 || Number(n) > 24)));
});

t.test('a Matter payload gets its own label, and a longer text a larger version', async (t) => {
  const svg = await qrSvg('MT:Y.K9042C00KA0648G00', 'Matter pairing code');
  t.match(svg, /aria-label="Matter pairing code"/);
  const long = await qrSvg('X'.repeat(100));
  const size = Number(/viewBox="0 0 (\d+)/.exec(long)?.[1]);
  t.ok(size > 29 && (size - 8 - 17) % 4 === 0, `a QR version's size: ${size - 8} modules`);
});
