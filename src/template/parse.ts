import { createRequire } from 'node:module';
import type { NjNode } from './nunjucks.js';

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
  nextToken(): Token | null;
  skip(type: string): boolean;
  expect(type: string): Token;
  fail(message: string, lineno?: number, colno?: number): never;
  parseExpression(): NjNode;
  parseSignature(): NjNode;
  parseAsRoot(): NjNode;
}

type NodeClass = new (lineno: number, colno: number, ...fields: unknown[]) => NjNode;

const require = createRequire(import.meta.url);
const { Parser } = require('nunjucks/src/parser.js') as { Parser: new (tokens: unknown) => ParserInstance };
const lexer = require('nunjucks/src/lexer.js') as { lex(src: string, opts: unknown): unknown };
const nodes = require('nunjucks/src/nodes.js') as Record<'FunCall' | 'LookupVal' | 'Literal' | 'Filter' | 'Symbol' | 'NodeList', NodeClass>;

class HearthParser extends (Parser as unknown as new (tokens: unknown) => ParserInstance) {
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
}

/** Parses a template into nunjucks' tree. */
export function parseTemplate(source: string): NjNode {
  return new HearthParser(lexer.lex(source, {})).parseAsRoot();
}
