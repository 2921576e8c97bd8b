/** Names whose lookup is a way out of the sandbox; refused wherever they appear. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

/** Node's and JavaScript's globals: never variables of a template, so their names are refused outright. */
export const NODE_GLOBALS: ReadonlySet<string> = new Set([
  'process',
  'require',
  'global',
  'globalThis',
  'module',
  'exports',
  'Function',
  'eval',
  'Buffer',
  'import',
]);
