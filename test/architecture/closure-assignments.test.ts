import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { packageRoot } from '../../src/util/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * No function literal assigned straight to a property (`obj.fn = () => ...`, `obj[k] = function ...`) in the hub's
 * code. V8's parser takes such a function for a method and has it allocated in the old generation. The closure then
 * keeps what it captures alive through every young collection until the next full one, so each call's objects are
 * promoted. In the REST path that was every request's objects, 40 KB per scavenge while the path warmed up
 * (`Reply.readBody`, bench/RESULTS.md, the flood). Bind the function to a const first, or pass it on directly.
 *
 * Left alone: the template sandbox, which patches the nunjucks runtime once at load, where old space is right.
 */
const EXEMPT = new Set(['src/template/sandbox.ts']);

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** `file:line: target` for each function literal assigned to a property in `file`. */
function closureAssignments(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(packageRoot(), file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      ASSIGNMENTS.has(node.operatorToken.kind) &&
      (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left))
    ) {
      let value: ts.Expression = node.right;
      while (
        ts.isParenthesizedExpression(value) ||
        ts.isAsExpression(value) ||
        ts.isSatisfiesExpression(value) ||
        ts.isNonNullExpression(value)
      )
        value = value.expression;
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${file}:${line}: ${node.left.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

t.test('the hub never assigns a function literal to a property', async (t) => {
  const found = sourceFiles('src')
    .filter((f) => !EXEMPT.has(f))
    .flatMap(closureAssignments);
  t.same(found, [], 'bind the function to a const first (see this file)');
});

t.test('the check finds each form it forbids', async (t) => {
  // The rule's own self-test: a file with every form, written where the walker reads it.
  const forms = closureAssignments('test/fixtures/closure-assignments.ts');
  t.equal(forms.length, 5, forms.join('\n'));
});
