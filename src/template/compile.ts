import { fault, TemplateError, TemplateFault } from './errors.js';
import { type NjCompilerClass, type NjEnvironment, type NjNode, type NjTemplate, nj } from './nunjucks.js';
import { parseTemplate } from './parse.js';
import { step } from './scope.js';
import { jinjaSyntaxError } from './syntax-errors.js';
import { checkTree, isNode, pythonSemantics, TreeProblem } from './tree.js';

/**
 * Compiling a template: nunjucks parses it, hearth checks the tree (no way out of the sandbox, no loading of
 * other templates, filters and tests that exist), and a compiler that emits Python's operators instead of
 * JavaScript's (`[1] + [2]`, `'a' < 1`, datetimes minus timedeltas) produces the code.
 */

interface Emitter {
  _emit(code: string): void;
  compile(node: NjNode, frame: unknown): void;
}

/** `(lineno = L, colno = C, `: nunjucks reports the position last set, and sets it only before calls. */
function at(node: NjNode): string {
  return `(lineno = ${Number(node.lineno) || 0}, colno = ${Number(node.colno) || 0}, `;
}

function emitCall(self: Emitter, fn: string, node: NjNode, frame: unknown): void {
  self._emit(`${at(node)}runtime.hearth.${fn}(`);
  self.compile(node.left as NjNode, frame);
  self._emit(',');
  self.compile(node.right as NjNode, frame);
  self._emit('))');
}

interface CompileFrame {
  lookup(name: string): string | null | undefined;
}

interface CompilerInternals {
  _tmpid(): string;
  _emitLine(code: string): void;
  _compileExpression(node: NjNode, frame: unknown): void;
}

type Inherited = (this: unknown, node: NjNode, frame: unknown) => void;

function inherited(name: string): Inherited {
  return (nj().Compiler.prototype as unknown as Record<string, Inherited>)[name] as Inherited;
}

let compilerClass: NjCompilerClass | undefined;

/** The compiler, defined on the first compile: it extends nunjucks', which is loaded only then. */
function hearthCompiler(): NjCompilerClass {
  compilerClass ??= defineCompiler(nj().Compiler);
  return compilerClass;
}

function defineCompiler(Compiler: NjCompilerClass): NjCompilerClass {
  return class HearthCompiler extends Compiler {
    /** How many `for` loops enclose the code being compiled (a macro's body starts again at none). */
    private loops = 0;
    /** Whether the pair being compiled belongs to a dict literal (not to keyword arguments). */
    private inDict = false;
    compileFor(node: NjNode, frame: unknown): void {
      this.loops++;
      try {
        inherited('compileFor').call(this, node, frame);
      } finally {
        this.loops--;
      }
    }
    _compileMacro(node: NjNode, frame: unknown): unknown {
      const outer = this.loops;
      this.loops = 0;
      try {
        return (inherited('_compileMacro') as unknown as (this: unknown, n: NjNode, f: unknown) => unknown).call(this, node, frame);
      } finally {
        this.loops = outer;
      }
    }
    compileBreak(node: NjNode): void {
      if (this.loops === 0) throw new TreeProblem(fault('TemplateSyntaxError', "Encountered unknown tag 'break'."), node);
      this._emit('break;\n');
    }
    compileContinue(node: NjNode): void {
      if (this.loops === 0) throw new TreeProblem(fault('TemplateSyntaxError', "Encountered unknown tag 'continue'."), node);
      this._emit('continue;\n');
    }
    /** `f(*args)`: the sequence is spread by the runtime's call (sandbox.ts). */
    compileStar(node: NjNode, frame: unknown): void {
      this._emit('runtime.hearth.star(');
      this.compile(node.target as NjNode, frame);
      this._emit(')');
    }
    /** `x is test(a, b)`: every argument passed (nunjucks wrote them without commas between). */
    compileIs(node: NjNode, frame: unknown): void {
      const right = node.right as NjNode;
      const name = isNode(right.name) ? right.name.value : right.value;
      this._emit(`env.getTest(${JSON.stringify(String(name))}).call(context, `);
      this.compile(node.left as NjNode, frame);
      for (const arg of (isNode(right.args) ? right.args.children : undefined) ?? []) {
        this._emit(',');
        this.compile(arg, frame);
      }
      this._emit(') === true');
    }
    /** Every node compiled counts towards the render's deadline (compiling a long template takes long too). */
    override compile(node: NjNode, frame?: unknown): void {
      step();
      super.compile(node, frame);
    }
    /**
     * The callee's name, which nunjucks writes into the generated code as a string for its error messages,
     * escaping only `"`: a string literal holding `\"` would end that string and let the rest run as code
     * (and a newline breaks it). Only plain characters are kept.
     */
    _getNodeName(node: NjNode): string {
      const name = (inherited('_getNodeName') as unknown as (this: unknown, n: NjNode) => string).call(this, node);
      return name.replace(/[^A-Za-z0-9_.()[\] -]/g, '_');
    }
    /**
     * `{% set ns.x = value %}` sets an attribute of a namespace(), as in Jinja; nunjucks parses it but would
     * compile it as a variable named "undefined".
     */
    compileSet(node: NjNode, frame: unknown): void {
      const targets = node.targets as NjNode[];
      const first = targets[0];
      if (targets.length === 1 && first !== undefined && first.typename === 'LookupVal' && isNode(node.value)) {
        this._emit('runtime.hearth.setAttr(');
        this.compile(first.target as NjNode, frame);
        this._emit(',');
        this.compile(first.val as NjNode, frame);
        this._emit(',');
        this.compile(node.value, frame);
        this._emit(');\n');
        return;
      }
      if (targets.some((target) => target.typename !== 'Symbol')) {
        throw new TreeProblem(fault('TemplateSyntaxError', 'can only assign to names and to attributes of a namespace()'), node);
      }
      if (targets.length > 1 && isNode(node.value)) {
        this.compileUnpackingSet(targets, node.value, frame as CompileFrame);
        return;
      }
      inherited('compileSet').call(this, node, frame);
    }
    /** `{% set a, b = pair %}` unpacks the sequence, as Python's assignment does (nunjucks gave both the whole value). */
    compileUnpackingSet(targets: NjNode[], value: NjNode, frame: CompileFrame): void {
      const self = this as unknown as CompilerInternals;
      const ids = targets.map((target) => {
        let id = frame.lookup(String(target.value));
        if (id === null || id === undefined) {
          id = self._tmpid();
          self._emitLine(`var ${id};`);
        }
        return id;
      });
      const tmp = self._tmpid();
      this._emit(`var ${tmp} = runtime.hearth.unpack(`);
      self._compileExpression(value, frame);
      self._emitLine(`, ${targets.length});`);
      targets.forEach((target, i) => {
        const name = JSON.stringify(String(target.value));
        const id = ids[i] as string;
        self._emitLine(`${id} = ${tmp}[${i}];`);
        self._emitLine(`frame.set(${name}, ${id}, true);`);
        self._emitLine(`if(frame.topLevel) { context.setVariable(${name}, ${id}); }`);
        self._emitLine(`if(frame.topLevel) { context.addExport(${name}, ${id}); }`);
      });
    }
    /** A parenthesised group with commas is a Python tuple, not JavaScript's comma operator. */
    compileGroup(node: NjNode, frame: unknown): void {
      const children = node.children ?? [];
      const tuple = children.length !== 1 || (node as unknown as { trailingComma?: boolean }).trailingComma === true;
      this._emit(tuple ? 'runtime.hearth.tuple([' : '(');
      children.forEach((child, i) => {
        if (i > 0) this._emit(',');
        this.compile(child, frame);
      });
      this._emit(tuple ? '])' : ')');
    }
    /**
     * A dict literal's key may be a number or any expression, as in Jinja (`{0: 'off'}`, `{None: None}`): a bare
     * name is a variable there. Keyword arguments are pairs too, whose bare name stays the argument's name.
     */
    compileDict(node: NjNode, frame: unknown): void {
      const outer = this.inDict;
      this.inDict = node.typename === 'Dict';
      try {
        inherited('compileDict').call(this, node, frame);
      } finally {
        this.inDict = outer;
      }
    }
    compileKeywordArgs(node: NjNode, frame: unknown): void {
      const outer = this.inDict;
      this.inDict = false;
      try {
        inherited('compileKeywordArgs').call(this, node, frame);
      } finally {
        this.inDict = outer;
      }
    }
    compilePair(node: NjNode, frame: unknown): void {
      const key = node.key as NjNode;
      if ((key.typename === 'Literal' && typeof key.value === 'string') || (key.typename === 'Symbol' && !this.inDict)) {
        inherited('compilePair').call(this, node, frame);
        return;
      }
      this._emit('[runtime.hearth.dictKey(');
      this.compile(key, frame);
      this._emit(')]: ');
      this.compile(node.value as NjNode, frame);
    }
    compileAdd(node: NjNode, frame: unknown): void {
      emitCall(this, 'add', node, frame);
    }
    compileSub(node: NjNode, frame: unknown): void {
      emitCall(this, 'sub', node, frame);
    }
    compileMul(node: NjNode, frame: unknown): void {
      emitCall(this, 'mul', node, frame);
    }
    compileDiv(node: NjNode, frame: unknown): void {
      emitCall(this, 'div', node, frame);
    }
    compileFloorDiv(node: NjNode, frame: unknown): void {
      emitCall(this, 'floorDiv', node, frame);
    }
    compileMod(node: NjNode, frame: unknown): void {
      emitCall(this, 'mod', node, frame);
    }
    compilePow(node: NjNode, frame: unknown): void {
      emitCall(this, 'pow', node, frame);
    }
    compileNeg(node: NjNode, frame: unknown): void {
      this._emit(`${at(node)}runtime.hearth.neg(`);
      this.compile(node.target as NjNode, frame);
      this._emit('))');
    }
    compileConcat(node: NjNode, frame: unknown): void {
      emitCall(this, 'concat', node, frame);
    }
    compileCompare(node: NjNode, frame: unknown): void {
      this._emit(`${at(node)}runtime.hearth.compare(`);
      this.compile(node.expr as NjNode, frame);
      for (const op of node.ops as { type: string; expr: NjNode }[]) {
        this._emit(`,${JSON.stringify(op.type)},`);
        this.compile(op.expr, frame);
      }
      this._emit('))');
    }
    /**
     * Python's truthiness for `not`, `and`, `or` and `x if c else y` (an empty list or dict is false; `a or b`
     * is `a` when it is true, else `b`, evaluated only then); `{% if %}` conditions become `not not c`.
     */
    compileNot(node: NjNode, frame: unknown): void {
      this._emit('!runtime.hearth.truthy(');
      this.compile(node.target as NjNode, frame);
      this._emit(')');
    }
    compileOr(node: NjNode, frame: unknown): void {
      this._emit('((__left) => runtime.hearth.truthy(__left) ? __left : (');
      this.compile(node.right as NjNode, frame);
      this._emit('))(');
      this.compile(node.left as NjNode, frame);
      this._emit(')');
    }
    compileAnd(node: NjNode, frame: unknown): void {
      this._emit('((__left) => runtime.hearth.truthy(__left) ? (');
      this.compile(node.right as NjNode, frame);
      this._emit(') : __left)(');
      this.compile(node.left as NjNode, frame);
      this._emit(')');
    }
    compileInlineIf(node: NjNode, frame: unknown): void {
      this._emit('(runtime.hearth.truthy(');
      this.compile(node.cond as NjNode, frame);
      this._emit(') ? ');
      this.compile(node.body as NjNode, frame);
      this._emit(' : ');
      if (isNode(node.else_)) this.compile(node.else_, frame);
      else this._emit('undefined');
      this._emit(')');
    }
    /** Attribute and name lookups set the position too, so an error there names its own line and column. */
    compileLookupVal(node: NjNode, frame: unknown): void {
      this._emit(at(node));
      inherited('compileLookupVal').call(this, node, frame);
      this._emit(')');
    }
    compileSymbol(node: NjNode, frame: unknown): void {
      this._emit(at(node));
      inherited('compileSymbol').call(this, node, frame);
      this._emit(')');
    }
  };
}

export function bareMessage(err: Error): string {
  return err.message.replace(/^\([^)\n]*\)(?: \[Line \d+(?:, Column \d+)?\])?\n\s*/, '').trim();
}

/** Parses, checks and compiles a template; syntax problems become a TemplateError naming the line and column. */
export function compileTemplate(env: NjEnvironment, source: string, name: string): NjTemplate {
  let code: string;
  try {
    const ast = parseTemplate(source);
    checkTree(ast, env);
    const compiler = new (hearthCompiler())(name, false);
    compiler.compile(nj().transformer.transform(pythonSemantics(ast), [], name));
    code = compiler.getCode();
  } catch (err) {
    // The render's deadline, reached while compiling (step() in the parser and the compiler).
    if (err instanceof TemplateFault) throw new TemplateError(err.kind, err.message, name, undefined, err.limitMs);
    if (err instanceof TreeProblem) {
      throw new TemplateError(err.fault.kind, err.fault.message, name, { line: err.node.lineno + 1, column: err.node.colno + 1 });
    }
    const e = err instanceof Error ? err : new Error(String(err));
    if (e instanceof RangeError) throw new TemplateError('TemplateSyntaxError', 'the template is too deeply nested', name, undefined);
    const { lineno, colno } = e as { lineno?: unknown; colno?: unknown };
    const problem = jinjaSyntaxError(source, {
      message: bareMessage(e),
      line: typeof lineno === 'number' ? lineno : undefined,
      column: typeof colno === 'number' ? colno : undefined,
    });
    throw new TemplateError('TemplateSyntaxError', problem.message, name, { line: problem.line, column: problem.column });
  }
  let props: unknown;
  try {
    props = new Function(code)();
  } catch (err) {
    // Code nunjucks generated that JavaScript refuses (a loop control where none can stand).
    throw new TemplateError('TemplateSyntaxError', err instanceof Error ? err.message : String(err), name, undefined);
  }
  return new (nj().nunjucks.Template)({ type: 'code', obj: props }, env, name);
}
