/**
 * The only things besides JSON data that a template can reach. Member lookups on anything else are refused
 * by the sandbox, and only functions registered here can be called: nothing a template touches leads back
 * to a JavaScript constructor, prototype or Node global.
 */
export abstract class TemplateObject {
  /** The value of `obj.name` (attributes and bound methods), or undefined when there is none. */
  abstract getAttr(name: string): unknown;
  /** Python's str(): what `{{ obj }}` prints. */
  abstract pyStr(): string;
  /** Python's repr(): how the object prints inside a list or dict. */
  pyRepr(): string {
    return this.pyStr();
  }
  /** Python's `__eq__`; identity unless a subclass compares values. */
  pyEquals(other: unknown): boolean {
    return this === other;
  }
  /** The items of `for x in obj` and of filters that take a sequence; undefined when it is not iterable. */
  iterate(): unknown[] | undefined {
    return undefined;
  }
  /** Python's type name, for error messages. */
  abstract readonly pyType: string;
  /** `self <op> other` (or `other <op> self` when reflected); NOT_SUPPORTED when the types do not combine. */
  pyBinary(_op: BinaryOp, _other: unknown, _reflected: boolean): unknown {
    return NOT_SUPPORTED;
  }
  /** Ordering against another value: negative, zero or positive; undefined when they do not compare. */
  pyCompare(_other: unknown): number | undefined {
    return undefined;
  }
}

export type BinaryOp = '+' | '-' | '*';

/** What pyBinary answers for operands it does not handle (Python's NotImplemented). */
export const NOT_SUPPORTED: unique symbol = Symbol('not supported');

const callables = new WeakSet<object>();
const attributeHosts = new WeakMap<object, (name: string) => unknown>();
const iterableFunctions = new WeakMap<object, () => unknown[]>();

/** Marks a function as callable from templates (globals, filters' helpers, bound methods). */
export function templateCallable<F extends (...args: never[]) => unknown>(fn: F): F {
  callables.add(fn);
  return fn;
}

export function isTemplateCallable(fn: unknown): boolean {
  return typeof fn === 'function' && callables.has(fn);
}

const macros = new WeakSet<object>();

/** A template's own macro (made by nunjucks' runtime, registered by the sandbox): callable like hearth's functions. */
export function markMacro(fn: object): void {
  macros.add(fn);
}

/** Whether a template may call this: hearth's registered functions and the template's macros. */
export function isCallableFromTemplate(fn: unknown): boolean {
  return typeof fn === 'function' && (callables.has(fn) || macros.has(fn));
}

/**
 * A callable that also has attributes and can be iterated, as Home Assistant's `states` is: `states('x')`,
 * `states.sensor`, `for s in states`.
 */
export function callableWithAttributes<F extends (...args: never[]) => unknown>(
  fn: F,
  attr: (name: string) => unknown,
  items: () => unknown[],
): F {
  callables.add(fn);
  attributeHosts.set(fn, attr);
  iterableFunctions.set(fn, items);
  return fn;
}

export function attributeHostOf(fn: object): ((name: string) => unknown) | undefined {
  return attributeHosts.get(fn);
}

export function itemsOfFunction(fn: object): (() => unknown[]) | undefined {
  return iterableFunctions.get(fn);
}

/** A plain data object (JSON, or a dict literal in the template): not an array, a class instance or a function. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keyword arguments as nunjucks passes them: a last argument object marked `__keywords`. */
export function splitArgs(args: readonly unknown[]): { positional: unknown[]; kwargs: Record<string, unknown> } {
  const last = args[args.length - 1];
  if (isPlainObject(last) && last.__keywords === true) {
    const kwargs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(last)) if (k !== '__keywords') kwargs[k] = v;
    return { positional: args.slice(0, -1), kwargs };
  }
  return { positional: [...args], kwargs: {} };
}
