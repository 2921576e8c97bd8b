import { fault } from './errors.js';
import { splitArgs } from './objects.js';

/** Arguments by name, Python style: positional ones in order, then keywords; unknown keywords are an error. */
export interface Args {
  readonly values: Readonly<Record<string, unknown>>;
  has(name: string): boolean;
}

export function readArgs(fn: string, args: readonly unknown[], names: readonly string[]): Args {
  const { positional, kwargs } = splitArgs(args);
  if (positional.length > names.length) {
    throw fault('TypeError', `${fn}() takes at most ${names.length} arguments (${positional.length} given)`);
  }
  const values: Record<string, unknown> = {};
  positional.forEach((v, i) => {
    values[names[i] as string] = v;
  });
  for (const [k, v] of Object.entries(kwargs)) {
    if (!names.includes(k)) throw fault('TypeError', `${fn}() got an unexpected keyword argument '${k}'`);
    if (Object.hasOwn(values, k)) throw fault('TypeError', `${fn}() got multiple values for argument '${k}'`);
    values[k] = v;
  }
  return { values, has: (name) => Object.hasOwn(values, name) };
}
