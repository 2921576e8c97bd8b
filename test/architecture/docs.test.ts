import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';

/**
 * The README is a front page (what hearth is, the two commands, install on a Pi, a first relay, a first Zigbee
 * device, a second hub, where the docs are) and everything else lives in docs/. Every link stays inside the
 * repository: the docs ship in the release tarball and are read on a Pi that may have no internet.
 */
const ROOT = packageRoot();
const README = 'README.md';
const PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
  .sort();
const MAX_README_LINES = 300;

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The text with fenced code blocks and inline code spans blanked out (links in code are not links). */
function withoutCode(text: string): string {
  const blank = (s: string): string => s.replace(/[^\n]/g, ' ');
  return text.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, blank).replace(/(`+)[\s\S]*?\1/g, blank);
}

/** Every link target in a Markdown text: inline links and images, reference definitions, autolinks, bare URLs. */
function linksOf(text: string): string[] {
  const prose = withoutCode(text);
  const found: string[] = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1] ?? '');
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push(m[1] ?? '');
  for (const m of prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]*)>/gi)) found.push(m[1] ?? '');
  // GitHub turns a bare URL in prose into a link too (those inside a link's target were found above).
  const bare = prose.replace(/\]\([^)]*\)/g, '').replace(/<[a-z][a-z0-9+.-]*:[^>\s]*>/gi, '');
  for (const m of bare.matchAll(/\b(?:https?:\/\/|www\.)[^\s)>]+/gi)) found.push(m[0].replace(/[.,;:!?]+$/, ''));
  return found;
}

/** GitHub's anchor for each heading of a Markdown text (lower case, punctuation dropped, spaces to hyphens). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const m of withoutCode(text).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    // The heading as it reads: code spans keep their text, links their label, emphasis goes.
    const heading = text.slice(m.index ?? 0).split('\n')[0] ?? '';
    const words = heading
      .replace(/^ {0,3}#{1,6}[ \t]+/, '')
      .replace(/[ \t#]*$/, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*~]/g, '');
    const slug = words
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  return anchors;
}

/** What is wrong with one link of `file`, or undefined when it leads to a file (and heading) of this repository. */
function problemOf(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || /^www\./i.test(target))
    return 'leaves the repository (name outside projects in plain text)';
  if (target.startsWith('/')) return 'is an absolute path (use a path relative to the file)';
  const [path = '', anchor] = target.split('#', 2);
  const to = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
  const inside = relative(ROOT, to);
  if (inside.startsWith('..') || inside.split(sep)[0] === '..') return 'leads outside the repository';
  if (!existsSync(to)) return 'leads to no file';
  if (anchor !== undefined) {
    if (!statSync(to).isFile() || !to.endsWith('.md')) return 'has an anchor into something that is not a Markdown file';
    if (!anchorsOf(readFileSync(to, 'utf8')).has(anchor)) return `names no heading of ${inside}`;
  }
  return undefined;
}

t.test(`the README is a front page of at most ${MAX_README_LINES} lines with the two commands`, async (t) => {
  const text = read(README);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  t.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines (at most ${MAX_README_LINES}: the rest goes in docs/)`);
  t.match(text, 'make run', 'README shows `make run`');
  t.match(text, 'make test', 'README shows `make test`');
});

t.test('every link in the README and docs/ leads to a file of this repository', async (t) => {
  const broken: string[] = [];
  for (const file of [README, ...PAGES])
    for (const target of linksOf(read(file))) {
      const problem = problemOf(file, target);
      if (problem !== undefined) broken.push(`${file}: ${target} ${problem}`);
    }
  t.same(broken, [], 'broken or outgoing links');
});

t.test('the README links every docs page, and every page links back to the README', async (t) => {
  const fromReadme = new Set(linksOf(read(README)).map((l) => l.split('#')[0]));
  t.same(
    PAGES.filter((p) => !fromReadme.has(p)),
    [],
    'docs pages the README does not link',
  );
  t.same(
    PAGES.filter((p) => !linksOf(read(p)).some((l) => l.split('#')[0] === '../README.md')),
    [],
    'docs pages without a link back to the README',
  );
});

t.test('the link checker itself: outgoing, missing and code-quoted links', async (t) => {
  const sample = [
    'See [a](https://example.org), <http://example.org> and www.example.org.',
    '[b](../README.md) [c](missing.md) [d](api.md#no-such-heading) [e](../../outside.md)',
    '`[not a link](https://example.org)` and `http://localhost:8123/`',
    '```sh',
    'curl https://example.org',
    '```',
  ].join('\n');
  const problems = linksOf(sample).map((l) => `${l}: ${problemOf('docs/x.md', l) ?? 'ok'}`);
  t.same(problems, [
    'https://example.org: leaves the repository (name outside projects in plain text)',
    '../README.md: ok',
    'missing.md: leads to no file',
    'api.md#no-such-heading: names no heading of docs/api.md',
    '../../outside.md: leads outside the repository',
    'http://example.org: leaves the repository (name outside projects in plain text)',
    'www.example.org: leaves the repository (name outside projects in plain text)',
  ]);
  t.ok(anchorsOf('# Node.js 20.19 or later 20.x\n## The `hub:` section\n## A\n## A').has('nodejs-2019-or-later-20x'));
  t.ok(anchorsOf('## The `hub:` section').has('the-hub-section'));
  t.ok(anchorsOf('## A\n## A').has('a-1'));
});
