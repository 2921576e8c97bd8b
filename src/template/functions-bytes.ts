import { readArgs } from './args.js';
import { fault } from './errors.js';
import { toInt } from './functions-values.js';
import { TemplateObject, templateCallable } from './objects.js';
import { num } from './py-float.js';
import { pyStr } from './py-format.js';
import { checkStringSize, step } from './scope.js';

/**
 * Python's bytes as HA's templates make them (from_hex, pack, base64_decode(None)) and the struct
 * functions pack/unpack. A bytes value prints as Python's repr: `b'\x0f\x01'`.
 */
export class PyBytes extends TemplateObject {
  override readonly pyType = 'bytes';
  constructor(readonly data: Uint8Array) {
    super();
  }
  getAttr(name: string): unknown {
    if (name === 'hex') return templateCallable(() => Buffer.from(this.data).toString('hex'));
    return undefined;
  }
  override iterate(): unknown[] {
    return [...this.data];
  }
  override pyEquals(other: unknown): boolean {
    return other instanceof PyBytes && Buffer.from(this.data).equals(Buffer.from(other.data));
  }
  pyStr(): string {
    const quote = this.data.includes(0x27) && !this.data.includes(0x22) ? '"' : "'";
    let out = `b${quote}`;
    for (const byte of this.data) {
      if (byte === 0x5c) out += '\\\\';
      else if (byte === quote.charCodeAt(0)) out += `\\${quote}`;
      else if (byte === 0x0a) out += '\\n';
      else if (byte === 0x0d) out += '\\r';
      else if (byte === 0x09) out += '\\t';
      else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, '0')}`;
      else out += String.fromCharCode(byte);
    }
    return `${out}${quote}`;
  }
}

function fromHex(value: unknown): PyBytes {
  const text = pyStr(value).replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw fault('ValueError', `non-hexadecimal number found in fromhex() arg: '${pyStr(value)}'`);
  checkStringSize(text);
  return new PyBytes(Uint8Array.from(Buffer.from(text, 'hex')));
}

interface Field {
  readonly code: string;
  readonly size: number;
}

const SIZES: Readonly<Record<string, number>> = {
  x: 1,
  c: 1,
  b: 1,
  B: 1,
  '?': 1,
  h: 2,
  H: 2,
  i: 4,
  I: 4,
  l: 4,
  L: 4,
  q: 8,
  Q: 8,
  e: 2,
  f: 4,
  d: 8,
};

/** A struct format string: byte order and fields (counts expanded); undefined when Python would refuse it. */
function parseFormat(format: string): { little: boolean; fields: Field[] } | undefined {
  let rest = format.replace(/\s+/g, '');
  let little = true;
  if (/^[@=<>!]/.test(rest)) {
    little = rest[0] === '<' || rest[0] === '@' || rest[0] === '=';
    rest = rest.slice(1);
  }
  const fields: Field[] = [];
  for (const m of rest.matchAll(/(\d*)(.)/g)) {
    const size = SIZES[m[2] as string];
    if (size === undefined) return undefined;
    const count = m[1] === '' ? 1 : Number(m[1]);
    if (count > 64) return undefined;
    for (let i = 0; i < count; i++) fields.push({ code: m[2] as string, size });
  }
  return fields.length === 0 && rest !== '' ? undefined : { little, fields };
}

const RANGES: Readonly<Record<string, [bigint, bigint]>> = {
  b: [-128n, 127n],
  B: [0n, 255n],
  h: [-32768n, 32767n],
  H: [0n, 65535n],
  i: [-(2n ** 31n), 2n ** 31n - 1n],
  I: [0n, 2n ** 32n - 1n],
  l: [-(2n ** 31n), 2n ** 31n - 1n],
  L: [0n, 2n ** 32n - 1n],
  q: [-(2n ** 63n), 2n ** 63n - 1n],
  Q: [0n, 2n ** 64n - 1n],
};

function packValue(value: unknown, format: string): PyBytes | undefined {
  const spec = parseFormat(format);
  const values = spec?.fields.filter((f) => f.code !== 'x') ?? [];
  if (spec === undefined || values.length !== 1) return undefined;
  const field = values[0] as Field;
  const buf = Buffer.alloc(spec.fields.reduce((n, f) => n + f.size, 0));
  let at = 0;
  for (const f of spec.fields) {
    if (f.code === 'x') {
      at += 1;
      continue;
    }
    const n = num(value);
    if (n === undefined || typeof value === 'boolean') return undefined;
    if (f.code === 'f' || f.code === 'd' || f.code === 'e') {
      if (f.code === 'e') return undefined;
      if (f.code === 'f') spec.little ? buf.writeFloatLE(n, at) : buf.writeFloatBE(n, at);
      else spec.little ? buf.writeDoubleLE(n, at) : buf.writeDoubleBE(n, at);
    } else if (f.code === '?') buf.writeUInt8(n === 0 ? 0 : 1, at);
    else {
      if (!Number.isInteger(n)) return undefined;
      const big = BigInt(n);
      const [lo, hi] = RANGES[field.code] ?? [0n, 0n];
      if (big < lo || big > hi) return undefined;
      const unsigned = big < 0n ? big + 2n ** BigInt(f.size * 8) : big;
      for (let i = 0; i < f.size; i++) {
        const byte = Number((unsigned >> BigInt(8 * i)) & 0xffn);
        buf[spec.little ? at + i : at + f.size - 1 - i] = byte;
      }
    }
    at += f.size;
  }
  return new PyBytes(Uint8Array.from(buf));
}

function unpackValue(value: unknown, format: string, offset: number): unknown {
  const spec = parseFormat(format);
  if (spec === undefined || !(value instanceof PyBytes)) return undefined;
  const size = spec.fields.reduce((n, f) => n + f.size, 0);
  const buf = Buffer.from(value.data);
  if (offset < 0 || offset + size > buf.length) return undefined;
  let at = offset;
  for (const f of spec.fields) {
    if (f.code === 'x') {
      at += 1;
      continue;
    }
    if (f.code === 'f') return spec.little ? buf.readFloatLE(at) : buf.readFloatBE(at);
    if (f.code === 'd') return spec.little ? buf.readDoubleLE(at) : buf.readDoubleBE(at);
    if (f.code === '?') return buf[at] !== 0;
    if (f.code === 'e' || f.code === 'c') return undefined;
    let big = 0n;
    for (let i = 0; i < f.size; i++) big |= BigInt(buf[spec.little ? at + i : at + f.size - 1 - i] as number) << BigInt(8 * i);
    const signed = f.code === f.code.toLowerCase();
    if (signed && big >= 2n ** BigInt(f.size * 8 - 1)) big -= 2n ** BigInt(f.size * 8);
    return Number(big);
  }
  return undefined;
}

export const BYTES_FUNCTIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  /** HA logs a warning and gives None when the value does not fit the format. */
  pack: (value, format) => {
    step();
    return packValue(value, pyStr(format)) ?? null;
  },
  unpack: (...args) => {
    step();
    const a = readArgs('unpack', args, ['value', 'format_string', 'offset']);
    return unpackValue(a.values.value, pyStr(a.values.format_string), toInt(a.values.offset ?? 0) ?? 0) ?? null;
  },
};

export const BYTES_FILTERS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  from_hex: fromHex,
  base64_encode: (v) => (v instanceof PyBytes ? Buffer.from(v.data) : Buffer.from(pyStr(v), 'utf8')).toString('base64'),
  base64_decode: (...args) => {
    const a = readArgs('base64_decode', args, ['value', 'encoding']);
    const data = Buffer.from(pyStr(a.values.value), 'base64');
    if (a.has('encoding') && a.values.encoding === null) return new PyBytes(Uint8Array.from(data));
    return data.toString(a.values.encoding === 'ascii' ? 'latin1' : 'utf8');
  },
};
