/**
 * The fan-out latency curve as an SVG: p50 and p99 from the table write to receipt at the client, against
 * the number of subscribed clients, one line per server, from bench/out/ws-fanout.json. Plain SVG with no
 * script or external font, so it renders on GitHub and in any browser.
 *
 * Usage: node --import tsx bench/chart.ts [ws-fanout.json] [out.svg]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface FanoutRow {
  readonly label: string;
  readonly clients: number;
  readonly rate: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 190, top: 48, bottom: 56 };
const COLORS = ['#1f77b4', '#2ca02c', '#d62728', '#9467bd', '#ff7f0e'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Renders the rows at one write rate (the latency cases); log scales on both axes. */
export function fanoutChart(rows: readonly FanoutRow[], rate: number): string {
  const data = rows.filter((r) => r.rate === rate && Number.isFinite(r.p99Ms) && r.p99Ms > 0);
  const labels = [...new Set(data.map((r) => r.label))];
  const clients = [...new Set(data.map((r) => r.clients))].sort((a, b) => a - b);
  const values = data.flatMap((r) => [r.p50Ms, r.p99Ms]).filter((v) => v > 0);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">WebSocket fan-out latency, ${rate.toLocaleString('en')} state changes/s</text>`,
  ];
  if (data.length === 0 || clients.length === 0) {
    out.push(`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">no fan-out results</text>`, '</svg>');
    return out.join('\n');
  }
  const minExp = Math.floor(Math.log10(Math.min(...values)));
  const maxExp = Math.ceil(Math.log10(Math.max(...values)));
  const yOf = (v: number) => MARGIN.top + plotH - ((Math.log10(v) - minExp) / Math.max(1, maxExp - minExp)) * plotH;
  const cMin = Math.log10(clients[0] as number);
  const cMax = Math.log10(clients.at(-1) as number);
  const xOf = (c: number) => MARGIN.left + (cMax === cMin ? plotW / 2 : ((Math.log10(c) - cMin) / (cMax - cMin)) * plotW);

  // Grid and axes.
  for (let e = minExp; e <= maxExp; e++) {
    const y = yOf(10 ** e);
    out.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(
      `<text x="${MARGIN.left - 8}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toString() : (10 ** e).toFixed(-e)}</text>`,
    );
  }
  for (const c of clients) {
    const x = xOf(c);
    out.push(`<line x1="${x}" x2="${x}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#eee"/>`);
    out.push(`<text x="${x}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${c}</text>`);
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">subscribed clients</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">latency, ms (log scale)</text>`,
  );

  labels.forEach((label, i) => {
    const color = COLORS[i % COLORS.length] as string;
    const series = data.filter((r) => r.label === label).sort((a, b) => a.clients - b.clients);
    for (const [key, dash] of [
      ['p99Ms', ''],
      ['p50Ms', ' stroke-dasharray="5 4"'],
    ] as const) {
      const points = series.filter((r) => r[key] > 0).map((r) => `${xOf(r.clients).toFixed(1)},${yOf(r[key]).toFixed(1)}`);
      out.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
      for (const p of points) {
        const [x, y] = p.split(',');
        out.push(`<circle cx="${x}" cy="${y}" r="3" fill="${color}"/>`);
      }
    }
    const ly = MARGIN.top + 14 + i * 22;
    const lx = MARGIN.left + plotW + 16;
    out.push(`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${lx + 30}" y="${ly + 4}">${esc(label)}</text>`);
  });
  const ky = MARGIN.top + 14 + labels.length * 22 + 10;
  const kx = MARGIN.left + plotW + 16;
  out.push(
    `<line x1="${kx}" x2="${kx + 24}" y1="${ky}" y2="${ky}" stroke="#333" stroke-width="2"/><text x="${kx + 30}" y="${ky + 4}">p99</text>`,
    `<line x1="${kx}" x2="${kx + 24}" y1="${ky + 20}" y2="${ky + 20}" stroke="#333" stroke-width="2" stroke-dasharray="5 4"/><text x="${kx + 30}" y="${ky + 24}">p50</text>`,
    '</svg>',
  );
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2] ?? fileURLToPath(new URL('./out/ws-fanout.json', import.meta.url));
  const output = process.argv[3] ?? fileURLToPath(new URL('./fanout-latency.svg', import.meta.url));
  const { rows } = JSON.parse(readFileSync(input, 'utf8')) as { rows: FanoutRow[] };
  const rates = [...new Set(rows.map((r) => r.rate))].sort((a, b) => a - b);
  writeFileSync(output, `${fanoutChart(rows, rates[0] ?? 1000)}\n`);
  console.log(`wrote ${output}`);
}
