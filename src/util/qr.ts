// A setup QR code (HomeKit's X-HM:// URI, Matter's MT: payload) as an SVG, encoded by uqr: a QR encoder of 28 KB with
// no dependencies, loaded only when a page asks for a code. matter.js's encoder drew these before, which loaded
// matter.js's types (27 MB of RSS in a bare node) for the /homekit page alone.

/** Through a constant, so the bundle keeps the package outside (scripts/bundle.mjs) and loads it only when asked. */
const UQR: string = 'uqr';

interface Encoded {
  readonly size: number;
  /** Rows of modules, the quiet zone included: true is dark. */
  readonly data: readonly (readonly boolean[])[];
}

/** Four light modules around the code, as the QR specification asks for scanners. */
const QUIET_ZONE = 4;

/** SVG of the QR code for `text` (dark modules on white, with the quiet zone). */
export async function qrSvg(text: string, label = 'HomeKit setup code'): Promise<string> {
  const { encode } = (await import(UQR)) as { encode(text: string, options: { ecc: 'M'; border: number }): Encoded };
  const { size, data } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  const rects: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) rects.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * 6}" height="${size * 6}" shape-rendering="crispEdges" role="img" aria-label="${label}"><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="${rects.join('')}"/></svg>`;
}
