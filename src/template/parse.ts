import { createRequire } from 'node:module';
import type { NjNode } from './nunjucks.js';
import { step } from './scope.js';

/**
 * nunjucks' parser with Python's slices: `x[1:3]`, `x[:-1]`, `x[::2]` become the `__slice` filter (a
 * filter, so no variable can stand in for it). Everything else parses as nunjucks parses it.
 */

interface Token {
  readonly type: string;
  readonly value: string;
  readonly lineno: number;
  readonly colno: number;
}

interface ParserInstance {
  peekToken(): Token | null;
  nextToken(withWhitespace?: boolean): Token | null;
  skip(type: string): boolean;
  expect(type: string): Token;
  fail(message: string, lineno?: number, colno?: number): never;
  parseExpression(): NjNode;
  parseSignature(tolerant?: boolean, noParens?: boolean): NjNode;
  parseStatement(): NjNode | null;
  advanceAfterBlockEnd(name?: string): Token;
  skipValue(type: string, value: string): boolean;
  parseCompare(): NjNode;
  parsePrimary(noPostfix?: boolean): NjNode;
  skipSymbol(value: string): boolean;
  parseAsRoot(): NjNode;
}

type NodeClass = new (lineno: number, colno: number, ...fields: unknown[]) => NjNode;

type ParserClass = new (tokens: unknown) => ParserInstance;
type Nodes = Record<
  | 'FunCall'
  | 'LookupVal'
  | 'Literal'
  | 'Filter'
  | 'Symbol'
  | 'NodeList'
  | 'Is'
  | 'Not'
  | 'KeywordArgs'
  | 'Pair'
  | 'Output'
  | 'Group'
  | 'Array'
  | 'Dict',
  NodeClass
> & {
  readonly Node: { extend(name: string, props: { fields: string[] }): NodeClass };
};
type Lexer = { lex(src: string, opts: unknown): unknown };

/** The tokenizer's state the brace counting reads (nunjucks' Tokenizer). */
interface Tokenizer {
  in_code: boolean;
  readonly str: string;
  readonly index: number;
  readonly lineno: number;
  readonly colno: number;
  forward(): void;
  nextToken(): Token | null;
}

const require = createRequire(import.meta.url);
let loaded: { readonly Parser: ParserClass; readonly lexer: Lexer } | undefined;

/** `{% break %}`, `{% continue %}` (compiled by compile.ts) and the star argument of `f(*args)`. */
let extraNodes: { Break: NodeClass; Continue: NodeClass; Star: NodeClass } | undefined;

/** The parser and lexer, defined on the first parse: nunjucks is loaded only then (see nunjucks.ts). */
function hearthParser(): { readonly Parser: ParserClass; readonly lexer: Lexer } {
  if (loaded === undefined) {
    const nodes = require('nunjucks/src/nodes.js') as Nodes;
    extraNodes = {
      Break: nodes.Node.extend('Break', { fields: [] }),
      Continue: nodes.Node.extend('Continue', { fields: [] }),
      Star: nodes.Node.extend('Star', { fields: ['target'] }),
    };
    loaded = {
      Parser: defineParser((require('nunjucks/src/parser.js') as { Parser: ParserClass }).Parser, nodes),
      lexer: require('nunjucks/src/lexer.js') as Lexer,
    };
  }
  return loaded;
}

/**
 * Jinja's lexer counts braces: in `{{ {"a": {"b": 1}} }}` the `}}` after 1 closes two dicts, not the tag.
 * nunjucks' ends the tag at the first `}}`; inside an open `{` a `}` is a brace here.
 */
function countingBraces(tokens: Tokenizer): Tokenizer {
  const next = tokens.nextToken.bind(tokens);
  let depth = 0;
  const counted = (): Token | null => {
    if (tokens.in_code && depth > 0 && tokens.str.charAt(tokens.index) === '}') {
      const { lineno, colno } = tokens;
      tokens.forward();
      depth--;
      return { type: 'right-curly', value: '}', lineno, colno };
    }
    const tok = next();
    if (tok?.type === 'left-curly') depth++;
    else if (tok?.type === 'right-curly') depth = Math.max(0, depth - 1);
    else if (tok?.type === 'variable-end' || tok?.type === 'block-end') depth = 0;
    return tok;
  };
  tokens.nextToken = counted;
  return tokens;
}

/** Words that end an expression rather than start a test's argument (`x is defined and y`). */
const NOT_AN_ARGUMENT = new Set(['and', 'or', 'else', 'if', 'is', 'in', 'not']);
const ARGUMENT_STARTS = new Set(['int', 'float', 'string', 'left-bracket', 'left-curly', 'none', 'boolean']);

function defineParser(Parser: ParserClass, nodes: Nodes): ParserClass {
  return class HearthParser extends Parser {
    /** Every token read counts towards the render's deadline (the lexer runs as the parser asks for tokens). */
    override nextToken(withWhitespace?: boolean): Token | null {
      step();
      return super.nextToken(withWhitespace);
    }

    /**
     * `x is test`, `x is test(arg)` and, as in Jinja, `x is test arg` for a test with one argument
     * (`x is divisibleby 3`, `x is eq 'on'`), which nunjucks does not parse.
     */
    parseIs(): NjNode {
      let node = this.parseCompare();
      if (!this.skipSymbol('is')) return node;
      const not = this.skipSymbol('not');
      const tok = this.peekToken();
      let test: NjNode;
      if (tok !== null && tok.type === 'symbol') {
        this.nextToken();
        const name = new nodes.Symbol(tok.lineno, tok.colno, tok.value);
        const next = this.peekToken();
        if (next !== null && next.type === 'left-paren') test = new nodes.FunCall(tok.lineno, tok.colno, name, this.parseSignature());
        else if (next !== null && (ARGUMENT_STARTS.has(next.type) || (next.type === 'symbol' && !NOT_AN_ARGUMENT.has(next.value)))) {
          const arg = this.parsePostfix(this.parsePrimary(true));
          test = new nodes.FunCall(tok.lineno, tok.colno, name, new nodes.NodeList(next.lineno, next.colno, [arg]));
        } else test = name;
      } else test = this.parseCompare();
      node = new nodes.Is(node.lineno, node.colno, node, test);
      return not ? new nodes.Not(node.lineno, node.colno, node) : node;
    }

    /** Jinja's loop controls and `{% do %}`; everything else as nunjucks parses it. */
    override parseStatement(): NjNode | null {
      const tok = this.peekToken();
      if (tok?.type === 'symbol' && (tok.value === 'break' || tok.value === 'continue' || tok.value === 'do')) {
        this.nextToken();
        if (tok.value === 'do') {
          const expr = this.parseExpression();
          this.advanceAfterBlockEnd(tok.value);
          // An output of nothing: `{{ expr | __discard }}`.
          const args = new nodes.NodeList(tok.lineno, tok.colno, [expr]);
          const discard = new nodes.Filter(tok.lineno, tok.colno, new nodes.Symbol(tok.lineno, tok.colno, '__discard'), args);
          return new nodes.Output(tok.lineno, tok.colno, [discard]);
        }
        this.advanceAfterBlockEnd(tok.value);
        const made = extraNodes as NonNullable<typeof extraNodes>;
        return new (tok.value === 'break' ? made.Break : made.Continue)(tok.lineno, tok.colno);
      }
      return super.parseStatement();
    }

    /** Call arguments as Jinja reads them: a trailing comma is allowed, and `*args` spreads a sequence. */
    override parseSignature(tolerant?: boolean, noParens?: boolean): NjNode {
      if (noParens === true || this.peekToken()?.type !== 'left-paren') return super.parseSignature(tolerant, noParens);
      const open = this.nextToken() as Token;
      const args = new nodes.NodeList(open.lineno, open.colno, []);
      const kwargs = new nodes.KeywordArgs(open.lineno, open.colno, []);
      for (;;) {
        const tok = this.peekToken();
        if (tok === null) this.fail("unexpected end of template, expected ')'", open.lineno, open.colno);
        if (tok.type === 'right-paren') {
          this.nextToken();
          break;
        }
        if ((args.children?.length ?? 0) + (kwargs.children?.length ?? 0) > 0 && !this.skip('comma'))
          this.fail(`expected token ',', got '${tok.value}'`, tok.lineno, tok.colno);
        if (this.peekToken()?.type === 'right-paren') continue;
        const star = this.peekToken();
        if (star?.type === 'operator' && star.value === '*') {
          this.nextToken();
          const made = extraNodes as NonNullable<typeof extraNodes>;
          (args.children as NjNode[]).push(new made.Star(star.lineno, star.colno, this.parseExpression()));
          continue;
        }
        const arg = this.parseExpression();
        if (this.skipValue('operator', '='))
          (kwargs.children as NjNode[]).push(new nodes.Pair(arg.lineno, arg.colno, arg, this.parseExpression()));
        else (args.children as NjNode[]).push(arg);
      }
      if ((kwargs.children?.length ?? 0) > 0) (args.children as NjNode[]).push(kwargs);
      return args;
    }

    /**
     * Lists, dicts and parenthesised groups as Jinja reads them: a trailing comma is allowed (`[1, 2,]`), and
     * `(x,)` is a one-item tuple.
     */
    parseAggregate(): NjNode | null {
      const open = this.nextToken();
      const kind = open === null ? undefined : { 'left-paren': 'Group', 'left-bracket': 'Array', 'left-curly': 'Dict' }[open.type];
      if (open === null || kind === undefined) return null;
      const node = new nodes[kind as 'Group' | 'Array' | 'Dict'](open.lineno, open.colno, []);
      const children = node.children as NjNode[];
      for (;;) {
        const type = this.peekToken()?.type;
        if (type === 'right-paren' || type === 'right-bracket' || type === 'right-curly') {
          this.nextToken();
          break;
        }
        if (children.length > 0) {
          if (!this.skip('comma')) this.fail('parseAggregate: expected comma after expression', open.lineno, open.colno);
          const after = this.peekToken()?.type;
          if (after === 'right-paren' || after === 'right-bracket' || after === 'right-curly') {
            if (kind === 'Group') (node as unknown as { trailingComma: boolean }).trailingComma = true;
            continue;
          }
        }
        if (kind === 'Dict') {
          const key = this.parsePrimary();
          if (!this.skip('colon')) this.fail('parseAggregate: expected colon after dict key', open.lineno, open.colno);
          const value = this.parseExpression();
          children.push(new nodes.Pair(key.lineno, key.colno, key, value));
        } else children.push(this.parseExpression());
      }
      return node;
    }

    /** A float literal with a whole value (`2.0`) stays a float, as Python's does: it reads as `2 | float`. */
    override parsePrimary(noPostfix?: boolean): NjNode {
      const tok = this.peekToken();
      if (tok !== null && tok.type === 'float' && Number.isInteger(Number.parseFloat(tok.value))) {
        this.nextToken();
        const literal = new nodes.Literal(tok.lineno, tok.colno, Number.parseFloat(tok.value));
        const args = new nodes.NodeList(tok.lineno, tok.colno, [literal]);
        const node = new nodes.Filter(tok.lineno, tok.colno, new nodes.Symbol(tok.lineno, tok.colno, 'float'), args);
        return noPostfix === true ? node : this.parsePostfix(node);
      }
      return super.parsePrimary(noPostfix);
    }

    /** nunjucks' postfix loop (calls, `[index]`, `.name`) with slices added to the `[` case. */
    parsePostfix(start: NjNode): NjNode {
      let node = start;
      for (let tok = this.peekToken(); tok !== null; tok = this.peekToken()) {
        if (tok.type === 'left-paren') {
          node = new nodes.FunCall(tok.lineno, tok.colno, node, this.parseSignature());
        } else if (tok.type === 'left-bracket') {
          node = this.parseSubscript(node, tok);
        } else if (tok.type === 'operator' && tok.value === '.') {
          this.nextToken();
          const val = this.nextToken();
          if (val === null || val.type !== 'symbol')
            this.fail(`expected name as lookup value, got ${val?.value ?? 'the end'}`, val?.lineno, val?.colno);
          node = new nodes.LookupVal(tok.lineno, tok.colno, node, new nodes.Literal(val.lineno, val.colno, val.value));
        } else break;
      }
      return node;
    }

    private parseSubscript(target: NjNode, open: Token): NjNode {
      this.nextToken();
      const none = () => new nodes.Literal(open.lineno, open.colno, null);
      const at = (type: string) => this.peekToken()?.type === type;
      const first = at('colon') ? none() : this.parseExpression();
      if (!this.skip('colon')) {
        this.expect('right-bracket');
        return new nodes.LookupVal(open.lineno, open.colno, target, first);
      }
      const stop = at('colon') || at('right-bracket') ? none() : this.parseExpression();
      let step = none();
      if (this.skip('colon') && !at('right-bracket')) step = this.parseExpression();
      this.expect('right-bracket');
      const args = new nodes.NodeList(open.lineno, open.colno, [target, first, stop, step]);
      return new nodes.Filter(open.lineno, open.colno, new nodes.Symbol(open.lineno, open.colno, '__slice'), args);
    }
  };
}

/** Parses a template into nunjucks' tree. */
export function parseTemplate(source: string): NjNode {
  const { Parser, lexer } = hearthParser();
  return new Parser(countingBraces(lexer.lex(source, {}) as Tokenizer)).parseAsRoot();
}
