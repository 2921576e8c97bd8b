// A setup QR code (HomeKit's X-HM:// URI, Matter's MT: payload) as an SVG. matter.js's QR encoder
// draws it with half-block characters, two modules a character; they become squares here. Loaded only when asked.

/**
 * Through a constant: the compiler would otherwise read matter.js's declarations, which need the DOM's types. In the
 * built hub scripts/bundle.mjs makes this import a lookup in hearth/matter.cjs (src/matter/lib.ts's MATTER_MODULES
 * has it) while the Matter bridge has that file loaded: its own copy of matter.js, where a second one from
 * node_modules cost 16 MB more RSS once the /matter page was viewed.
 */
const MATTER_TYPES: string = '@matter/types/schema';

/** SVG of the QR code for `text` (dark modules on white, with the quiet zone). */
export async function qrSvg(text: string, label = 'HomeKit setup code'): Promise<string> {
  const { QrCode } = (await import(MATTER_TYPES)) as { QrCode: { encode(text: string): string } };
  const rows = QrCode.encode(text)
    .split('\n')
    .filter((line) => line !== '');
  // Each character is two modules stacked: lit halves are light. The first row's top half and the last row's bottom
  // half are the frame the terminal would draw on its own background: left out.
  const modules: boolean[][] = [];
  rows.forEach((line, r) => {
    const chars = [...line];
    const top = chars.map((ch) => !(ch === '\u2588' || ch === '\u2580'));
    const bottom = chars.map((ch) => !(ch === '\u2588' || ch === '\u2584'));
    if (r > 0) modules.push(top);
    if (r < rows.length - 1) modules.push(bottom);
  });
  // An odd number of module rows leaves a light half row at the bottom: the code is square.
  const columns = Math.max(0, ...modules.map((m) => m.length));
  while (modules.length > columns && modules[modules.length - 1]?.every((dark) => !dark)) modules.pop();
  // The encoder keeps one light module around the code; scanners want four.
  const margin = 3;
  const width = columns + 2 * margin;
  const height = modules.length + 2 * margin;
  const rects: string[] = [];
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) rects.push(`M${x + margin} ${y + margin}h1v1h-1z`);
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width * 6}" height="${height * 6}" shape-rendering="crispEdges" role="img" aria-label="${label}"><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="${rects.join('')}"/></svg>`;
}
