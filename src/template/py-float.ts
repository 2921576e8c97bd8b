import { TemplateObject } from './objects.js';

/**
 * JavaScript has one number type, Python two: `float('2')` is `2.0` and prints so. A float whose value is
 * whole is kept in this box so that it prints as Python prints it; floats with a fraction are plain numbers
 * (they print with their point anyway), and so are ints. `valueOf` lets JavaScript arithmetic see the number.
 */
export class PyFloat extends TemplateObject {
  override readonly pyType = 'float';

  constructor(readonly value: number) {
    super();
  }

  override valueOf(): number {
    return this.value;
  }

  toJSON(): number {
    return this.value;
  }

  getAttr(name: string): unknown {
    if (name === 'real') return this;
    if (name === 'imag') return new PyFloat(0);
    return undefined;
  }

  pyStr(): string {
    const v = this.value;
    // Python writes whole floats from 1e16 on with an exponent, two digits at least: 1e+16.
    if (Math.abs(v) >= 1e16) return v.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
    return Object.is(v, -0) ? '-0.0' : `${v}.0`;
  }
}

/** A float result: boxed when whole, so it prints `2.0`. */
export function pyFloat(n: number): number | PyFloat {
  return Number.isInteger(n) ? new PyFloat(n) : n;
}

/** The number inside a value (an int, a float, a boxed float, a bool); undefined for anything else. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

/** Whether a number is a Python float (a boxed whole float, or one with a fraction, nan or inf). */
export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));
}
