import { fault, type TemplateFault } from './errors.js';
import { FORBIDDEN_NAMES, NODE_GLOBALS } from './forbidden.js';
import { type NjEnvironment, type NjNode, nj } from './nunjucks.js';
import { step } from './scope.js';

/**
 * The checks and rewrites of a parsed template before it is compiled: no way out of the sandbox, no loading
 * of other templates, filters and tests that exist, a bounded depth; Python's associativity and truth.
 */

const UNSUPPORTED_TAGS: Readonly<Record<string, string>> = {
  Extends: 'extends',
  Include: 'include',
  Import: 'import',
  FromImport: 'from',
};

/** The deepest tree checked; deeper nesting would overflow the stack in nunjucks' recursive compiler. */
const MAX_TREE_DEPTH = 200;

export function isNode(value: unknown): value is NjNode {
  return typeof value === 'object' && value !== null && typeof (value as { typename?: unknown }).typename === 'string';
}

function nameOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.typename === 'Symbol' || node.typename === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.typename === 'FunCall') return nameOf(node.name);
  return undefined;
}

export class TreeProblem extends Error {
  constructor(
    readonly fault: TemplateFault,
    readonly node: NjNode,
  ) {
    super(fault.message);
  }
}

function checkNode(node: NjNode, env: NjEnvironment): void {
  const problem = (kind: 'SecurityError' | 'TemplateSyntaxError', message: string): never => {
    throw new TreeProblem(fault(kind, message), node);
  };
  const tag = UNSUPPORTED_TAGS[node.typename];
  if (tag !== undefined) problem('TemplateSyntaxError', `{% ${tag} %} is not supported: a template cannot load other templates`);
  if (node.typename === 'CallExtension' || node.typename === 'CallExtensionAsync')
    problem('TemplateSyntaxError', 'extensions are not supported');
  let name: string | undefined;
  if (node.typename === 'Symbol') name = nameOf(node);
  else if (node.typename === 'LookupVal') name = nameOf(node.val);
  else if (node.typename === 'Pair') name = nameOf(node.key);
  if (name !== undefined && (FORBIDDEN_NAMES.has(name) || (node.typename === 'Symbol' && NODE_GLOBALS.has(name)))) {
    problem('SecurityError', `access to '${name}' is not allowed in templates`);
  }
  if (node.typename === 'Filter' || node.typename === 'FilterAsync') {
    const filter = nameOf(node.name);
    if (filter !== undefined && !Object.hasOwn(env.filters, filter)) problem('TemplateSyntaxError', `No filter named '${filter}'.`);
  }
  if (node.typename === 'Is') {
    const test = nameOf(node.right);
    if (test !== undefined && !Object.hasOwn(env.tests, test)) problem('TemplateSyntaxError', `No test named '${test}'.`);
  }
}

/** Python's operators of one precedence level; nunjucks gives each its own level, so `a * b // c` parsed as `a * (b // c)`. */
const LEVELS: readonly (readonly string[])[] = [
  ['Mul', 'Div', 'FloorDiv', 'Mod'],
  ['Add', 'Sub'],
];

function levelOf(node: NjNode): readonly string[] | undefined {
  return LEVELS.find((level) => level.includes(node.typename));
}

/** A chain of same-level operators rebuilt left to right, as Python associates them: `(a * b) // c`. */
function leftAssociated(node: NjNode, level: readonly string[]): NjNode {
  const operands: NjNode[] = [];
  const ops: NjNode[] = [];
  const walk = (n: NjNode): void => {
    if (level.includes(n.typename)) {
      walk(n.left as NjNode);
      ops.push(n);
      walk(n.right as NjNode);
    } else operands.push(n);
  };
  walk(node);
  let acc = pythonSemantics(operands[0] as NjNode);
  ops.forEach((op, i) => {
    const Op = nj().nodes[op.typename as 'Mul'];
    acc = new Op(op.lineno, op.colno, acc, pythonSemantics(operands[i + 1] as NjNode));
  });
  return acc;
}

/**
 * Where nunjucks' tree differs from Jinja's meaning: operators of one level associate to the left, and
 * `{% if c %}` / `{% elif c %}` test Python's truth of `c` (the condition becomes `not not c`).
 */
export function pythonSemantics(node: NjNode): NjNode {
  step();
  const level = levelOf(node);
  if (level !== undefined) return leftAssociated(node, level);
  for (const field of node.fields) {
    const value = node[field];
    const target = node as unknown as Record<string, unknown>;
    if (Array.isArray(value)) target[field] = value.map((child) => (isNode(child) ? pythonSemantics(child) : child));
    else if (isNode(value)) target[field] = pythonSemantics(value);
  }
  if ((node.typename === 'If' || node.typename === 'IfAsync') && isNode(node.cond)) {
    const cond = node.cond;
    (node as unknown as { cond: NjNode }).cond = new (nj().nodes.Not)(
      cond.lineno,
      cond.colno,
      new (nj().nodes.Not)(cond.lineno, cond.colno, cond),
    );
  }
  return node;
}

export function checkTree(root: NjNode, env: NjEnvironment): void {
  const stack: [NjNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [NjNode, number];
    step();
    if (depth > MAX_TREE_DEPTH)
      throw new TreeProblem(fault('TemplateSyntaxError', `the template nests deeper than ${MAX_TREE_DEPTH} levels`), node);
    checkNode(node, env);
    for (const field of node.fields) {
      const value = node[field];
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) stack.push([child, depth + 1]);
      } else if (isNode(value)) stack.push([value, depth + 1]);
    }
  }
}

/** The text of a nunjucks error without the `(path) [Line x, Column y]` prefix its Update() adds. */
