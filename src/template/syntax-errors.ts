/**
 * Template syntax errors in Jinja's words (what Home Assistant shows), with the line and column: Jinja's
 * lexer checks (brackets, strings, unclosed tags), its block checks ("Encountered unknown tag 'x'.",
 * "Unexpected end of template. ..."), and nunjucks' parser messages translated to Jinja's. Runs only
 * when a template failed to compile.
 */

export interface SyntaxProblem {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

interface BlockTag {
  readonly name: string;
  /** `{% set x = 1 %}` assigns; `{% set x %}...{% endset %}` is a block. */
  readonly assigns: boolean;
  readonly line: number;
  readonly column: number;
}

/** What each block opener waits for, in the order Jinja lists them; `else` narrows it. */
const OPENERS: Readonly<Record<string, readonly string[]>> = {
  if: ['elif', 'else', 'endif'],
  for: ['endfor', 'else'],
  macro: ['endmacro'],
  call: ['endcall'],
  filter: ['endfilter'],
  block: ['endblock'],
  with: ['endwith'],
  autoescape: ['endautoescape'],
};
const AFTER_ELSE: Readonly<Record<string, readonly string[]>> = { if: ['endif'], for: ['endfor'] };
const SIMPLE_TAGS = new Set(['set', 'do', 'break', 'continue', 'include', 'import', 'from', 'extends', 'print', 'raw']);

/** A 1-based line and column of an offset. */
function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Jinja's describe_token for the text at an offset (`end of print statement`, `integer`, a name, an operator). */
export function describeAt(source: string, offset: number): string {
  const rest = source.slice(offset).replace(/^[ \t\r\n]+/, '');
  if (rest === '') return 'end of template';
  if (/^-?\}\}/.test(rest)) return 'end of print statement';
  if (/^-?%\}/.test(rest)) return 'end of statement block';
  if (/^\d+\.\d/.test(rest)) return 'float';
  if (/^\d/.test(rest)) return 'integer';
  if (/^['"]/.test(rest)) return 'string';
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
  if (name !== undefined) return name;
  return /^(\*\*|\/\/|==|!=|<=|>=|.)/s.exec(rest)?.[0] ?? rest[0] ?? '';
}

type LexResult = { readonly problem: SyntaxProblem } | { readonly tags: BlockTag[] };

/** Jinja's lexer over the template: brackets balanced, strings closed, tags ended; the block tags it saw. */
function lex(source: string): LexResult {
  const tags: BlockTag[] = [];
  const fail = (message: string, offset: number): LexResult => ({ problem: { message, ...positionOf(source, offset) } });
  let i = 0;
  while (i < source.length) {
    const open = source.slice(i).search(/\{[{%#]/);
    if (open < 0) break;
    const start = i + open;
    const kind = source[start + 1];
    if (kind === '#') {
      const end = source.indexOf('#}', start + 2);
      if (end < 0) return fail('Missing end of comment tag', start);
      i = end + 2;
      continue;
    }
    const close = kind === '{' ? '}}' : '%}';
    const endName = kind === '{' ? 'end of print statement' : 'end of statement block';
    let j = start + 2;
    if (source[j] === '-' || source[j] === '+') j++;
    if (kind === '%') {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(source.slice(j));
      if (m !== null) {
        const at = positionOf(source, j + m[0].length - (m[1] as string).length);
        const end = source.indexOf('%}', j);
        const inner = source.slice(j + m[0].length, end < 0 ? source.length : end);
        tags.push({ name: m[1] as string, assigns: /(^|[^=!<>])=($|[^=])/.test(inner), ...at });
        if (m[1] === 'raw') {
          const endRaw = /\{%[-+]?\s*endraw\s*[-+]?%\}/.exec(source.slice(j));
          if (endRaw === null) return fail('Missing end of raw directive', start);
          tags.push({ name: 'endraw', assigns: false, ...at });
          i = j + endRaw.index + endRaw[0].length;
          continue;
        }
      }
    }
    const stack: string[] = [];
    let ended = false;
    while (j < source.length) {
      const c = source[j] as string;
      if (c === "'" || c === '"') {
        let k = j + 1;
        while (k < source.length && source[k] !== c) k += source[k] === '\\' ? 2 : 1;
        if (k >= source.length) return fail(`unexpected char ${c === "'" ? `"'"` : `'"'`} at ${j}`, j);
        j = k + 1;
        continue;
      }
      if (stack.length === 0 && (source.startsWith(close, j) || (/^[-+]/.test(c) && source.startsWith(close, j + 1)))) {
        j += source.startsWith(close, j) ? 2 : 3;
        ended = true;
        break;
      }
      if (c === '(' || c === '[' || c === '{') stack.push(c === '(' ? ')' : c === '[' ? ']' : '}');
      else if (c === ')' || c === ']' || c === '}') {
        const expected = stack.pop();
        if (expected === undefined) return fail(`unexpected '${c}'`, j);
        if (expected !== c) return fail(`unexpected '${c}', expected '${expected}'`, j);
      }
      j++;
    }
    if (!ended) return fail(`unexpected end of template, expected '${endName}'.`, source.length);
    i = j;
  }
  return { tags };
}

/** Jinja's checks of block tags: unknown tags, tags out of place, blocks left open at the end. */
function checkBlocks(tags: readonly BlockTag[], source: string): SyntaxProblem | undefined {
  const stack: { name: string; expects: readonly string[] }[] = [];
  const looking = () => (stack.at(-1)?.expects ?? []).map((e) => `'${e}'`).join(' or ');
  const innermost = () => (stack.length > 0 ? ` The innermost block that needs to be closed is '${stack.at(-1)?.name}'.` : '');
  for (const tag of tags) {
    const top = stack.at(-1);
    if (top?.expects.includes(tag.name)) {
      if (tag.name === 'else') top.expects = AFTER_ELSE[top.name] ?? top.expects;
      else if (tag.name !== 'elif') stack.pop();
      continue;
    }
    const opens = tag.name === 'set' && !tag.assigns ? ['endset'] : OPENERS[tag.name];
    if (opens !== undefined) {
      stack.push({ name: tag.name, expects: opens });
      continue;
    }
    if (tag.name === 'set' || SIMPLE_TAGS.has(tag.name) || tag.name === 'endraw') continue;
    let message = `Encountered unknown tag '${tag.name}'.`;
    if (stack.length > 0) {
      const expected = stack.some((b) => b.expects.includes(tag.name));
      message += expected
        ? ` You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking()}.`
        : ` Jinja was looking for the following tags: ${looking()}.`;
    }
    return { message: message + innermost(), line: tag.line, column: tag.column };
  }
  if (stack.length > 0) {
    const end = positionOf(source, source.length);
    return { message: `Unexpected end of template. Jinja was looking for the following tags: ${looking()}.${innermost()}`, ...end };
  }
  return undefined;
}

/** The offset of a 1-based line and column (nunjucks' lineno is 0-based, its colno too). */
function offsetOf(source: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', offset);
    if (nl < 0) return source.length;
    offset = nl + 1;
  }
  return Math.min(source.length, offset + column - 1);
}

/** The last significant word before an offset inside its tag (`if`, `in`, `set`, or the tag's opening). */
function wordBefore(source: string, offset: number): string {
  const before = source.slice(0, offset).replace(/\s+$/, '');
  if (/\{\{[-+]?$/.test(before)) return '{{';
  return /([A-Za-z_]+)$/.exec(before)?.[1] ?? '';
}

/** nunjucks' parser message at a position, in Jinja's words. */
function translate(source: string, message: string, line: number, column: number): string {
  const offset = offsetOf(source, line, column);
  const got = describeAt(source, offset);
  const unexpected = /^unexpected token: (.*)$/s.exec(message);
  if (unexpected !== null) {
    const before = wordBefore(source, offset);
    if (before === 'is' || before === 'macro') return `expected token 'name', got '${got}'`;
    if (
      (got === 'end of print statement' && before === '{{') ||
      (got === 'end of statement block' && ['if', 'elif', 'in', 'set'].includes(before))
    )
      return `Expected an expression, got '${got}'`;
    return `unexpected '${got}'`;
  }
  if (message === 'expected variable end') return `expected token 'end of print statement', got '${got}'`;
  if (message.startsWith('expected block end')) return `expected token 'end of statement block', got '${got}'`;
  if (/^expected symbol, got/.test(message) || message === 'tag name expected') return `expected token 'name', got '${got}'`;
  if (message.startsWith('expected name as lookup value')) return 'expected name or number';
  if (/expected comma after expression|expected ',', got/.test(message)) return `expected token ',', got '${got}'`;
  if (message.startsWith('parseAggregate: expected colon')) return `expected token ':', got '${got}'`;
  if (message.startsWith('parseFor: expected "in"')) return `expected token 'in', got '${got}'`;
  if (message.startsWith('parseSet: expected =')) return `expected token 'end of statement block', got '${got}'`;
  if (/end of file|unexpected end/.test(message)) return 'unexpected end of template';
  return message;
}

/** Jinja reads a template once, front to back: of two problems the first one found is the one it reports. */
function before(a: { line: number; column: number }, b: { line: number; column: number }): boolean {
  return a.line < b.line || (a.line === b.line && (a.column ?? 1) < b.column);
}

/**
 * Jinja's TemplateSyntaxError for a template nunjucks could not parse; `parsed` is nunjucks' message and
 * position (1-based), when it had one.
 */
export function jinjaSyntaxError(source: string, parsed: { message: string; line?: number; column?: number }): SyntaxProblem {
  const lexed = lex(source);
  if ('problem' in lexed) return lexed.problem;
  const blocks = checkBlocks(lexed.tags, source);
  const atEnd = parsed.line === undefined || /end of file|unexpected end/.test(parsed.message);
  if (blocks !== undefined && (atEnd || !before(parsed as { line: number; column: number }, blocks))) return blocks;
  const line = parsed.line ?? 1;
  const column = parsed.column ?? 1;
  return { message: translate(source, parsed.message, line, column), line, column };
}
