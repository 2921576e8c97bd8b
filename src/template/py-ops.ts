import { fault } from './errors.js';
import { isSafeString } from './nunjucks.js';
import { type BinaryOp, isPlainObject, NOT_SUPPORTED, TemplateObject } from './objects.js';
import { isFloat, num, type PyFloat, pyFloat } from './py-float.js';
import { pyNumber, pyRepr, pyStr, pyTypeName } from './py-format.js';
import { propertyOf } from './py-keys.js';
import { checkItems, checkStringSize, step, undefinedFault } from './scope.js';

/**
 * Python's operators for the template's `+ - * / // % ~ == < ...`, which nunjucks would compile to
 * JavaScript's: `[1] + [2]` is `[1, 2]`, not `"12"`; `'a' < 1` is a TypeError, as in Home Assistant;
 * `now() - timedelta(hours=1)` is a datetime.
 */

function isNum(v: unknown): boolean {
  return num(v) !== undefined;
}

/** A number result: a float (printed `2.0` when whole) when either operand is one, as in Python. */
function result(value: number, a: unknown, b: unknown): number | PyFloat {
  return isFloat(a) || isFloat(b) ? pyFloat(value) : value;
}

function n(v: unknown): number {
  return num(v) as number;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isSafeString(v)) return v.val;
  return undefined;
}

function unsupported(op: string, a: unknown, b: unknown): Error {
  if (a === undefined || b === undefined) return undefinedFault();
  return fault('TypeError', `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function viaObjects(op: BinaryOp, a: unknown, b: unknown): unknown {
  if (a instanceof TemplateObject) {
    const r = a.pyBinary(op, b, false);
    if (r !== NOT_SUPPORTED) return r;
  }
  if (b instanceof TemplateObject) {
    const r = b.pyBinary(op, a, true);
    if (r !== NOT_SUPPORTED) return r;
  }
  throw unsupported(op, a, b);
}

export function add(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return result(n(a) + n(b), a, b);
  const sa = str(a);
  const sb = str(b);
  if (sa !== undefined && sb !== undefined) return checkStringSize(sa + sb);
  if (Array.isArray(a) && Array.isArray(b)) {
    checkItems(a.length + b.length);
    return [...a, ...b];
  }
  if (sa !== undefined && b !== undefined && !(b instanceof TemplateObject)) {
    throw fault('TypeError', `can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  return viaObjects('+', a, b);
}

export function sub(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return result(n(a) - n(b), a, b);
  return viaObjects('-', a, b);
}

export function mul(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return result(n(a) * n(b), a, b);
  const [seq, count] = isNum(b) ? [a, b] : [b, a];
  if (typeof count === 'number' && Number.isInteger(count)) {
    const s = str(seq);
    if (s !== undefined) {
      checkStringSize(s.length * Math.max(0, count));
      return s.repeat(Math.max(0, count));
    }
    if (Array.isArray(seq)) {
      checkItems(seq.length * Math.max(0, count));
      const out: unknown[] = [];
      for (let i = 0; i < count; i++) out.push(...seq);
      return out;
    }
  }
  return viaObjects('*', a, b);
}

/** `/` always gives a float in Python. */
export function div(a: unknown, b: unknown): number | PyFloat {
  if (!isNum(a) || !isNum(b)) throw unsupported('/', a, b);
  if (n(b) === 0) throw fault('ZeroDivisionError', 'division by zero');
  return pyFloat(n(a) / n(b));
}

export function floorDiv(a: unknown, b: unknown): number | PyFloat {
  if (!isNum(a) || !isNum(b)) throw unsupported('//', a, b);
  if (n(b) === 0) throw fault('ZeroDivisionError', 'integer division or modulo by zero');
  return result(Math.floor(n(a) / n(b)), a, b);
}

/** `**`: a float when either side is, or when an int is raised to a negative power. */
export function pow(a: unknown, b: unknown): number | PyFloat {
  if (!isNum(a) || !isNum(b)) throw unsupported('** or pow()', a, b);
  const r = n(a) ** n(b);
  return n(b) < 0 ? pyFloat(r) : result(r, a, b);
}

/** Unary minus, keeping a float a float. */
export function neg(a: unknown): number | PyFloat {
  if (!isNum(a)) throw a === undefined ? undefinedFault() : fault('TypeError', `bad operand type for unary -: '${pyTypeName(a)}'`);
  return result(-n(a), a, 0);
}

export function mod(a: unknown, b: unknown): unknown {
  const format = str(a);
  if (format !== undefined) return percentFormat(format, b);
  if (!isNum(a) || !isNum(b)) throw unsupported('%', a, b);
  const x = n(a);
  const y = n(b);
  if (y === 0) throw fault('ZeroDivisionError', 'integer division or modulo by zero');
  // Python's modulo takes the sign of the divisor.
  return result(((x % y) + y) % y, a, b);
}

/** `~`: both sides as Python's str(). */
export function concat(a: unknown, b: unknown): string {
  return checkStringSize(pyStr(a) + pyStr(b));
}

/** Python's `==`: by value for lists and dicts, True == 1, and datetimes by instant. */
export function pyEquals(a: unknown, b: unknown): boolean {
  // Counted: sorting, unique and `in` over big lists compare a lot, and must stop at the time limit too.
  step();
  if (a === b) return true;
  if (isNum(a) && isNum(b)) return n(a) === n(b);
  const sa = str(a);
  if (sa !== undefined) return sa === str(b);
  if (a instanceof TemplateObject) return a.pyEquals(b);
  if (b instanceof TemplateObject) return b.pyEquals(a);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  // null == undefined: Jinja's Undefined is not None, but both are "nothing" to a template author.
  return false;
}

/** Ordering as Python orders: numbers with numbers, strings with strings, lists item by item; else a TypeError. */
export function pyOrder(a: unknown, b: unknown, op: string): number {
  step();
  if (isNum(a) && isNum(b)) return n(a) - n(b);
  const sa = str(a);
  const sb = str(b);
  if (sa !== undefined && sb !== undefined) return sa < sb ? -1 : sa > sb ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEquals(a[i], b[i])) return pyOrder(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  if (a instanceof TemplateObject) {
    const r = a.pyCompare(b);
    if (r !== undefined) return r;
  }
  if (b instanceof TemplateObject) {
    const r = b.pyCompare(a);
    if (r !== undefined) return -r;
  }
  if (a === undefined || b === undefined) throw undefinedFault();
  throw fault('TypeError', `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** A comparison chain `a < b <= c` as Python evaluates it (each pair, all must hold). */
export function compare(first: unknown, ...rest: unknown[]): boolean {
  let left = first;
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const op = rest[i] as string;
    const right = rest[i + 1];
    let ok: boolean;
    if (op === '==' || op === '===') ok = pyEquals(left, right);
    else if (op === '!=' || op === '!==') ok = !pyEquals(left, right);
    else {
      const order = pyOrder(left, right, op);
      ok = op === '<' ? order < 0 : op === '>' ? order > 0 : op === '<=' ? order <= 0 : order >= 0;
    }
    if (!ok) return false;
    left = right;
  }
  return true;
}

/** Python's `in`: a list's items, a dict's keys, a substring. */
export function contains(key: unknown, container: unknown): boolean {
  const s = str(container);
  if (s !== undefined) {
    const k = str(key);
    if (k === undefined) throw fault('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(key)}`);
    return s.includes(k);
  }
  if (Array.isArray(container)) return container.some((item) => pyEquals(item, key));
  if (isPlainObject(container)) {
    const property = propertyOf(key);
    return property !== undefined && Object.hasOwn(container, property);
  }
  if (container instanceof TemplateObject) {
    const items = container.iterate();
    if (items !== undefined) return items.some((item) => pyEquals(item, key));
  }
  if (container === undefined) throw undefinedFault();
  throw fault('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Python's `%` formatting: `'%.1f' % 3.14159`, `'%s is %d' % [name, n]`. */
export function percentFormat(format: string, arg: unknown): string {
  const args = Array.isArray(arg) ? [...arg] : [arg];
  let next = 0;
  const out = format.replace(
    /%([-+ 0#]*)(\d+)?(?:\.(\d+))?([sdifrxXeEgG%])/g,
    (_m, flags: string, width?: string, precision?: string, conv?: string) => {
      if (conv === '%') return '%';
      if (next >= args.length) throw fault('TypeError', 'not enough arguments for format string');
      const value = args[next++];
      let text: string;
      const p = precision === undefined ? undefined : Number(precision);
      switch (conv) {
        case 's':
          text = pyStr(value);
          if (p !== undefined) text = text.slice(0, p);
          break;
        case 'r':
          text = pyRepr(value);
          break;
        case 'd':
        case 'i':
          text = String(Math.trunc(numberArg(value, conv)));
          break;
        case 'x':
        case 'X':
          text = Math.trunc(numberArg(value, conv)).toString(16);
          if (conv === 'X') text = text.toUpperCase();
          break;
        case 'e':
        case 'E':
          text = numberArg(value, conv)
            .toExponential(p ?? 6)
            .replace(/e([+-])(\d)$/, 'e$10$2');
          if (conv === 'E') text = text.toUpperCase();
          break;
        case 'g':
        case 'G':
          text = pyNumber(Number(numberArg(value, conv).toPrecision(p ?? 6)));
          break;
        default:
          text = numberArg(value, conv ?? 'f').toFixed(p ?? 6);
      }
      if (flags.includes('+') && /^[0-9]/.test(text) && conv !== 's' && conv !== 'r') text = `+${text}`;
      const w = width === undefined ? 0 : Number(width);
      if (text.length < w) {
        if (flags.includes('-')) text = text.padEnd(w);
        else if (flags.includes('0') && conv !== 's') {
          const sign = /^[+-]/.test(text) ? (text[0] as string) : '';
          text = sign + text.slice(sign.length).padStart(w - sign.length, '0');
        } else text = text.padStart(w);
      }
      return text;
    },
  );
  if (next < args.length && !Array.isArray(arg)) {
    throw fault('TypeError', 'not all arguments converted during string formatting');
  }
  return checkStringSize(out);
}

function numberArg(value: unknown, conv: string): number {
  if (isNum(value)) return n(value);
  throw fault('TypeError', `%${conv} format: a real number is required, not ${pyTypeName(value)}`);
}
