import { fault } from './errors.js';
import { FORBIDDEN_NAMES, NODE_GLOBALS } from './forbidden.js';
import { unpack } from './functions-collections.js';
import { setAttr } from './functions-misc.js';
import { iterationItems } from './iterate.js';
import { isSafeString, type NjContext, type NjFrame, nj } from './nunjucks.js';
import { attributeHostOf, isCallableFromTemplate, isPlainObject, markMacro, TemplateObject, templateCallable } from './objects.js';
import { tupleOf } from './py-collections.js';
import { pyStr, pyTruthy, pyTypeName } from './py-format.js';
import { propertyOf } from './py-keys.js';
import { pyMethod } from './py-methods.js';
import { add, compare, concat, contains, div, floorDiv, mod, mul, neg, pow, sub } from './py-ops.js';
import { checkStringSize, currentScope, missing, step, undefinedFault } from './scope.js';

/**
 * nunjucks is not a sandbox: `{{ range.constructor("return process")() }}` runs code. Every compiled
 * template reaches data only through a few runtime functions (member lookup, name lookup, calls, output,
 * iteration), and these are replaced here, once, for the whole process (hearth is nunjucks' only user):
 * - member lookups reach a JSON value's own keys, the Python methods of strings, lists and dicts, and the
 *   attributes hearth's own objects expose, never a prototype, a constructor or a function's properties;
 * - names resolve to the render's variables and the engine's globals (own keys only), never Node's;
 * - only functions hearth registered (and the template's own macros) can be called;
 * - every lookup, call, output and loop iteration counts as work, and the render stops past its deadline,
 *   its output limit or its string size limit.
 */

function refuse(name: string): never {
  throw fault('SecurityError', `access to '${name}' is not allowed in templates`);
}

function index(list: { readonly length: number }, key: number): number | undefined {
  if (!Number.isInteger(key)) return undefined;
  const i = key < 0 ? list.length + key : key;
  return i >= 0 && i < list.length ? i : undefined;
}

function memberLookup(obj: unknown, key: unknown): unknown {
  step();
  // None, True and False index a dict as Python's keys (`{None: None}[None]`).
  const name =
    typeof key === 'number' || typeof key === 'string' || typeof key === 'boolean' || key === null
      ? key
      : isSafeString(key)
        ? key.val
        : undefined;
  if (typeof name === 'string' && FORBIDDEN_NAMES.has(name)) refuse(name);
  if (obj === undefined) throw undefinedFault();
  if (obj === null) return missing(`'None' has no attribute '${String(name)}'`);
  if (name === undefined) return missing(`'${pyTypeName(obj)}' object has no attribute of that kind`);
  if (typeof obj === 'function') {
    const host = attributeHostOf(obj);
    if (host !== undefined) return host(String(name));
    throw fault('SecurityError', `functions have no attributes templates may read ('${String(name)}')`);
  }
  if (obj instanceof TemplateObject) {
    const value = obj.getAttr(String(name));
    return value === undefined ? missing(`'${obj.pyType}' object has no attribute '${String(name)}'`) : value;
  }
  const text = typeof obj === 'string' ? obj : isSafeString(obj) ? obj.val : undefined;
  if (text !== undefined) {
    if (typeof name === 'number') {
      const i = index(text, name);
      return i === undefined ? missing('string index out of range') : text[i];
    }
    return (typeof name === 'string' ? pyMethod(text, name) : undefined) ?? missing(`'str object' has no attribute '${String(name)}'`);
  }
  if (Array.isArray(obj)) {
    if (typeof name === 'number') {
      const i = index(obj, name);
      return i === undefined ? missing('list index out of range') : obj[i];
    }
    return (typeof name === 'string' ? pyMethod(obj, name) : undefined) ?? missing(`'list object' has no attribute '${String(name)}'`);
  }
  if (isPlainObject(obj)) {
    const k = propertyOf(name) ?? String(name);
    if (Object.hasOwn(obj, k)) return obj[k];
    return (typeof name === 'string' ? pyMethod(obj, k) : undefined) ?? missing(`'dict object' has no attribute '${String(name)}'`);
  }
  return missing(`'${pyTypeName(obj)}' object has no attribute '${String(name)}'`);
}

function contextOrFrameLookup(context: NjContext, frame: NjFrame, name: string): unknown {
  step();
  if (FORBIDDEN_NAMES.has(name) || NODE_GLOBALS.has(name)) refuse(name);
  const local = frame.lookup(name);
  if (local !== undefined) return local;
  if (Object.hasOwn(context.ctx, name)) return context.ctx[name];
  const globals = context.env.globals;
  if (Object.hasOwn(globals, name)) return globals[name];
  // Jinja spells these both ways; nunjucks knows only true, false and none.
  if (name === 'True') return true;
  if (name === 'False') return false;
  if (name === 'None') return null;
  return missing(`'${name}' is undefined`);
}

function callWrap(fn: unknown, name: string, _context: NjContext, args: unknown[]): unknown {
  step();
  if (fn === undefined || fn === null) throw fault('UndefinedError', currentScope()?.lastMissing ?? `'${name}' is undefined`);
  if (typeof fn !== 'function') throw fault('TypeError', `'${pyTypeName(fn)}' object is not callable`);
  if (!isCallableFromTemplate(fn)) throw fault('SecurityError', `'${name}' cannot be called from a template`);
  const spread = args.some((arg) => arg instanceof StarArgs) ? args.flatMap((arg) => (arg instanceof StarArgs ? arg.items : [arg])) : args;
  for (const arg of spread) if (typeof arg === 'string') checkStringSize(arg);
  return (fn as (...a: unknown[]) => unknown).apply(undefined, spread);
}

/** `*value` in a call's arguments: its items, spread by callWrap. */
class StarArgs {
  constructor(readonly items: readonly unknown[]) {}
}

function suppressValue(value: unknown): string {
  step();
  const scope = currentScope();
  if (value === undefined && scope?.strict === true) throw undefinedFault();
  const text = pyStr(value);
  if (scope !== undefined) {
    scope.outputChars += text.length;
    if (scope.outputChars > scope.maxOutputChars) {
      throw fault('OutputTooLarge', `the output is over the limit of ${scope.maxOutputChars} characters`);
    }
  }
  return text;
}

function fromIterator(value: unknown): unknown {
  step();
  return iterationItems(value);
}

const INSTALLED = Symbol.for('hearth.template.sandbox');

/** Replaces nunjucks' runtime functions with the sandboxed ones (idempotent). */
export function installSandbox(): void {
  const { runtime } = nj();
  if (runtime[INSTALLED as unknown as string] === true) return;
  runtime[INSTALLED as unknown as string] = true;
  runtime.memberLookup = memberLookup;
  runtime.contextOrFrameLookup = contextOrFrameLookup;
  runtime.callWrap = callWrap;
  runtime.suppressValue = suppressValue;
  runtime.fromIterator = fromIterator;
  runtime.inOperator = (key, container) => {
    step();
    return contains(key, container);
  };
  // Python's operators, which the compiler (compile.ts) emits instead of JavaScript's.
  runtime.hearth = {
    add,
    sub,
    mul,
    div,
    floorDiv,
    mod,
    pow,
    neg,
    concat,
    compare,
    tuple: (items: unknown[]) => tupleOf(items),
    dictKey: (key: unknown) => {
      if (key === undefined) throw undefinedFault();
      const text = propertyOf(key) ?? pyStr(key);
      if (FORBIDDEN_NAMES.has(text)) refuse(text);
      return text;
    },
    unpack: (value: unknown, count: number) => {
      step();
      return unpack(value, count);
    },
    star: (value: unknown) => {
      const items = iterationItems(value);
      return new StarArgs(Array.isArray(items) ? items : []);
    },
    truthy: (value: unknown) => {
      if (value === undefined && currentScope()?.strict === true) throw undefinedFault();
      return pyTruthy(value);
    },
    setAttr: (target: unknown, key: unknown, value: unknown) => {
      step();
      if (typeof key === 'string' && FORBIDDEN_NAMES.has(key)) refuse(key);
      setAttr(target, key, value);
    },
  };
  const makeMacro = runtime.makeMacro as (...a: unknown[]) => object;
  runtime.makeMacro = (...a: unknown[]) => {
    const macro = makeMacro(...a);
    markMacro(macro);
    return macro;
  };
  const frameSet = runtime.Frame.prototype.set;
  runtime.Frame.prototype.set = function set(this: NjFrame, name: string, value: unknown, resolveUp?: boolean): void {
    step();
    const head = name.split('.')[0] as string;
    if (FORBIDDEN_NAMES.has(head)) refuse(head);
    if (typeof value === 'string') checkStringSize(value);
    frameSet.call(this, name, value, resolveUp);
  };
}

export { FORBIDDEN_NAMES, iterationItems, NODE_GLOBALS, templateCallable };
