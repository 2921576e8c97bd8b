import { createRequire } from 'node:module';

/**
 * nunjucks' internals, typed as far as hearth uses them. @types/nunjucks covers the public API only; the
 * sandbox needs the runtime (the functions compiled templates call for every lookup, call and output),
 * the parser, the transformer and the compiler. nunjucks is CommonJS, so they are loaded with require.
 */

export interface NjNode {
  readonly typename: string;
  readonly fields: readonly string[];
  readonly lineno: number;
  readonly colno: number;
  readonly value?: unknown;
  readonly children?: readonly NjNode[];
  readonly [field: string]: unknown;
}

export interface NjFrame {
  set(name: string, value: unknown, resolveUp?: boolean): void;
  lookup(name: string): unknown;
  push(isolateWrites?: boolean): NjFrame;
}

export interface NjContext {
  readonly ctx: Record<string, unknown>;
  readonly env: { readonly globals: Record<string, unknown> };
}

export interface NjRuntime {
  Frame: { prototype: NjFrame };
  SafeString: new (value: string) => { readonly val: string; toString(): string };
  memberLookup(obj: unknown, key: unknown): unknown;
  contextOrFrameLookup(context: NjContext, frame: NjFrame, name: string): unknown;
  callWrap(fn: unknown, name: string, context: NjContext, args: unknown[]): unknown;
  suppressValue(value: unknown, autoescape: boolean): unknown;
  fromIterator(value: unknown): unknown;
  inOperator(key: unknown, container: unknown): boolean;
  [extra: string]: unknown;
}

export interface NjCompilerInstance {
  compile(node: NjNode, frame?: unknown): void;
  getCode(): string;
  _emit(code: string): void;
}

export type NjCompilerClass = new (name: string, throwOnUndefined: boolean) => NjCompilerInstance;

export interface NjTemplate {
  render(context: Record<string, unknown>): string;
}

export interface NjEnvironment {
  readonly globals: Record<string, unknown>;
  readonly filters: Record<string, unknown>;
  readonly tests: Record<string, unknown>;
  addFilter(name: string, fn: (...args: never[]) => unknown): void;
  addTest(name: string, fn: (...args: never[]) => unknown): void;
  addGlobal(name: string, value: unknown): void;
}

interface NjModule {
  Environment: new (loaders: null, options: { autoescape: boolean; dev: boolean; throwOnUndefined: boolean }) => NjEnvironment;
  Template: new (src: { type: 'code'; obj: unknown }, env: NjEnvironment, path: string) => NjTemplate;
}

type BinOp = new (lineno: number, colno: number, left: NjNode, right: NjNode) => NjNode;

export interface Nunjucks {
  readonly nunjucks: NjModule;
  readonly runtime: NjRuntime;
  readonly transformer: { transform(ast: NjNode, asyncFilters: string[], name: string): NjNode };
  readonly Compiler: NjCompilerClass;
  readonly nodes: {
    Not: new (lineno: number, colno: number, target: NjNode) => NjNode;
    Mul: BinOp;
    Div: BinOp;
    FloorDiv: BinOp;
    Mod: BinOp;
    Add: BinOp;
    Sub: BinOp;
  };
}

const require = createRequire(import.meta.url);
let loaded: Nunjucks | undefined;

/**
 * nunjucks, loaded on the first template: a hub whose configuration has none (and no client asks for a
 * render) never loads it, which keeps about 1-2 MB of code and source text out of its memory.
 */
export function nj(): Nunjucks {
  loaded ??= {
    nunjucks: require('nunjucks') as NjModule,
    runtime: require('nunjucks/src/runtime.js') as NjRuntime,
    transformer: require('nunjucks/src/transformer.js') as Nunjucks['transformer'],
    Compiler: (require('nunjucks/src/compiler.js') as { Compiler: NjCompilerClass }).Compiler,
    nodes: require('nunjucks/src/nodes.js') as Nunjucks['nodes'],
  };
  return loaded;
}

/** nunjucks' SafeString (what `| safe` and macros return); none exists before nunjucks is loaded. */
export function isSafeString(value: unknown): value is { readonly val: string } {
  return loaded !== undefined && value instanceof loaded.runtime.SafeString;
}
