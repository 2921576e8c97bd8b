import { setOwn } from '../core/own-keys.js';

/**
 * Home Assistant's result parsing (template.py `_parse_result`): the rendered text is read as a Python
 * literal, so `42` is a number, `[1, 2]` a list, `{'a': 1}` a dict and `True` a bool; a number is kept only
 * when the text is plainly written as one (`1e5` and `007` stay text), and anything else stays the text.
 */

const IS_NUMERIC = /^[+-]?(?!0\d)\d*(?:\.\d*)?$/;
const MAX_DEPTH = 64;

class Fail extends Error {}
/** Thrown as one shared instance: most rendered text is not a literal, and building an Error (its stack) per render cost more than the render. */
const FAIL = new Fail();

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): unknown {
    const v = this.value(0);
    this.ws();
    if (this.i !== this.s.length) throw FAIL;
    return v;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] as string)) this.i++;
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw FAIL;
    this.ws();
    const c = this.peek();
    if (c === '[') return this.seq('[', ']', depth);
    if (c === '(') return this.seq('(', ')', depth);
    if (c === '{') return this.dict(depth);
    if (c === "'" || c === '"') return this.strings();
    if (/[rRbBuU]/.test(c) && /['"]/.test(this.s[this.i + 1] ?? '')) return this.strings();
    if (c === '-' || c === '+') {
      this.i++;
      const v = this.value(depth + 1);
      if (typeof v !== 'number') throw FAIL;
      return c === '-' ? -v : v;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))?.[0];
    if (word !== undefined) {
      this.i += word.length;
      if (word === 'True') return true;
      if (word === 'False') return false;
      if (word === 'None') return null;
      // literal_eval reads set() as the empty set.
      if (word === 'set' && this.s.startsWith('()', this.i)) {
        this.i += 2;
        return [];
      }
      throw FAIL;
    }
    const num = /^(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?/.exec(this.s.slice(this.i))?.[0];
    if (num === undefined) throw FAIL;
    this.i += num.length;
    // Complex numbers (1j) are not wanted; leading zeros are a syntax error in Python.
    if (/^[jJ]/.test(this.peek()) || /^0\d/.test(num)) throw FAIL;
    return Number(num.replaceAll('_', ''));
  }

  private seq(open: string, close: string, depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.ws();
    while (this.peek() !== close) {
      out.push(this.value(depth + 1));
      this.ws();
      if (this.peek() === ',') {
        this.i++;
        this.ws();
      } else if (this.peek() !== close) throw FAIL;
    }
    this.i++;
    if (open === '(' && out.length === 1 && this.s[this.i - 2] !== ',') return out[0] as unknown[];
    return out;
  }

  private dict(depth: number): unknown {
    this.i++;
    const out: Record<string, unknown> = {};
    const set: unknown[] = [];
    let isSet: boolean | undefined;
    this.ws();
    while (this.peek() !== '}') {
      const key = this.value(depth + 1);
      this.ws();
      if (this.peek() === ':') {
        if (isSet === true) throw FAIL;
        isSet = false;
        this.i++;
        const v = this.value(depth + 1);
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) throw FAIL;
        setOwn(out, String(key), v);
      } else {
        if (isSet === false) throw FAIL;
        // A set cannot hold a dict (unhashable): `{{}}` stays text.
        if (typeof key === 'object' && key !== null && !Array.isArray(key)) throw FAIL;
        isSet = true;
        set.push(key);
      }
      this.ws();
      if (this.peek() === ',') {
        this.i++;
        this.ws();
      } else if (this.peek() !== '}') throw FAIL;
    }
    this.i++;
    return isSet === true ? set : out;
  }

  private strings(): string {
    let out = '';
    do {
      out += this.string();
      this.ws();
    } while (/['"]/.test(this.peek()) || (/[rRbBuU]/.test(this.peek()) && /['"]/.test(this.s[this.i + 1] ?? '')));
    return out;
  }

  private string(): string {
    let raw = false;
    while (/[rRbBuU]/.test(this.peek())) {
      if (/[bB]/.test(this.peek())) throw FAIL;
      raw ||= /[rR]/.test(this.peek());
      this.i++;
    }
    const q = this.peek();
    this.i++;
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i++] as string;
      if (c === q) return out;
      if (c === '\n') throw FAIL;
      if (c !== '\\' || raw) {
        out += c;
        continue;
      }
      const e = this.s[this.i++] ?? '';
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        '\\': '\\',
        "'": "'",
        '"': '"',
        a: '\x07',
        b: '\b',
        f: '\f',
        v: '\v',
        '0': '\0',
        '\n': '',
      };
      if (Object.hasOwn(simple, e)) out += simple[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.s.slice(this.i, this.i + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw FAIL;
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        this.i += len;
      } else out += `\\${e}`;
    }
    throw FAIL;
  }
}

/** Python's ast.literal_eval for the literals a template can print; undefined when the text is not one. */
export function literalEval(text: string): { value: unknown } | undefined {
  try {
    return { value: new Reader(text).parse() };
  } catch (err) {
    if (err instanceof Fail || err instanceof RangeError) return undefined;
    throw err;
  }
}

/** The value render_template and template entities get for rendered text (already stripped). */
export function parseResult(text: string): unknown {
  const parsed = literalEval(text);
  if (parsed === undefined) return text;
  const v = parsed.value;
  if (typeof v === 'string') return text;
  if (typeof v === 'number') {
    if (!IS_NUMERIC.test(text)) return text;
    // A value JavaScript cannot hold exactly stays text rather than silently changing.
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) return text;
    return v;
  }
  return v;
}
