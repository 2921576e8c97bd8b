import ts from 'typescript';

// keepNames gives a function its name by defining a `name` property on it (`__name(fn, "name")`, below), and V8 then
// keeps that function's properties in a dictionary of its own (260 bytes). A function or class expression without a
// name of its own is given one by the source instead, as a property of an object literal is (`({ name: () => 1 }).name`
// is "name"), which costs nothing: some 1,700 of esbuild's calls in the bundle, of which about 1,000 run as it loads.
// What is left to __name: function declarations and classes that refer to themselves by their own (minified) name.
// Read with TypeScript's parser (a dev dependency, as for tsc).
export function namesInSource(text) {
  const helper = NAME_HELPER.exec(text)?.[1];
  if (helper === undefined) throw new Error("hearth/matter.cjs: esbuild's __name helper has changed: see namesInSource");
  const source = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const anonymous = (node) =>
    ts.isArrowFunction(node) || ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name === undefined);
  const isNameCall = (node) => ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === helper;
  const namesItself = (member) =>
    ts.isClassStaticBlockDeclaration(member) &&
    member.body.statements.some(
      (s) => ts.isExpressionStatement(s) && isNameCall(s.expression) && s.expression.arguments[0]?.kind === ts.SyntaxKind.ThisKeyword,
    );
  // [start, end, replacement]: the call `__name(expression, "name")`, or for a class, its static block `static{__name(this, "name")}`.
  const edits = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === helper && node.arguments.length === 2) {
      const [fn, name] = node.arguments;
      // (A class that names itself in a static block and is then named again keeps both calls: the last one wins.)
      if (ts.isStringLiteral(name) && anonymous(fn) && !(ts.isClassExpression(fn) && fn.members.some(namesItself)))
        edits.push({ node, fn, name: name.text });
      const block = node.parent?.parent?.parent;
      if (
        ts.isStringLiteral(name) &&
        fn.kind === ts.SyntaxKind.ThisKeyword &&
        block !== undefined &&
        ts.isClassStaticBlockDeclaration(block) &&
        block.body.statements.length === 1 &&
        ts.isClassExpression(block.parent) &&
        block.parent.name === undefined &&
        !isNameCall(block.parent.parent)
      )
        edits.push({ node: block.parent, fn: block.parent, name: name.text, drop: block });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Applied from the last in the text to the first, each over the text as the ones within it left it.
  edits.sort((a, b) => b.node.getStart(source) - a.node.getStart(source) || a.node.end - b.node.end);
  let out = text;
  const done = [];
  const shifted = (from, to) => done.reduce((sum, d) => (d.start >= from && d.end <= to ? sum + d.delta : sum), 0);
  for (const { node, fn, name, drop } of edits) {
    const start = node.getStart(source);
    const end = node.end + shifted(start, node.end);
    const fnStart = fn.getStart(source);
    let body = out.slice(fnStart, fn.end + shifted(fnStart, fn.end));
    if (drop !== undefined) {
      const at = drop.getStart(source) - fnStart + shifted(fnStart, drop.getStart(source));
      body = body.slice(0, at) + body.slice(at + drop.end - drop.getStart(source));
    }
    const key = JSON.stringify(name);
    const replacement = `({${key}:${body}})[${key}]`;
    out = out.slice(0, start) + replacement + out.slice(end);
    done.push({ start, end: node.end, delta: replacement.length - (end - start) });
  }
  return out;
}

// keepNames gives a function its name by defining a `name` property on it, which costs it a property store of its own
// and a hidden class: for the arrow functions matter.js makes per endpoint and per transaction (some 40 an endpoint)
// 1.5 MB with 100 endpoints. matter.js reads the names of its classes, functions and of functions made as a module
// loads (its log formats), never those of arrow functions made later: those are left as V8 names them. Done on
// esbuild's helper `__name`, with a count of the modules loading: the bundle's top level (its modules, which run as it
// loads) and the lazy module initialiser `__esm` (a module matter.js imports with import(), if any). Its value is
// written `{value}` when identifiers are not shortened (HEARTH_READABLE, scripts/bundle.mjs).
// (Minified identifiers may have a `$`.)
const NAME_HELPER = /var ([\w$]+)=\(([\w$]+),([\w$]+)\)=>([\w$]+)\(\2,"name",\{value(?::\3)?,configurable:(?:true|!0)\}\);/;
const ESM_HELPER =
  /var ([\w$]+)=\(([\w$]+),([\w$]+),([\w$]+)\)=>\(\)=>\{if\(\4\)throw \4\[0\];try\{return \2&&\(\3=\2\(\2=0\)\),\3\}catch\(([\w$]+)\)\{throw \4=\[\5\],\5\}\};/;
export function namesAtLoad(text) {
  const sourceMap = '\n//# sourceMappingURL=';
  if (!NAME_HELPER.test(text) || !text.includes(sourceMap))
    throw new Error("hearth/matter.cjs: esbuild's __name helper or its source map comment has changed: see namesAtLoad");
  // The bundle's modules run as it loads (the top level, until the source map comment), and those loaded later by
  // import() in esbuild's lazy initialiser, if any.
  const at = text.lastIndexOf(sourceMap);
  return `${text.slice(0, at)}\n__hearthLoading=0;${text.slice(at)}`
    .replace(
      NAME_HELPER,
      (_m, name, fn, value, define) =>
        `var __hearthLoading=1;var ${name}=(${fn},${value})=>__hearthLoading>0||${fn}.prototype!==void 0?${define}(${fn},"name",{value:${value},configurable:true}):${fn};`,
    )
    .replace(
      ESM_HELPER,
      (_m, name, init, result, error, caught) =>
        `var ${name}=(${init},${result},${error})=>()=>{if(${error})throw ${error}[0];__hearthLoading++;try{return ${init}&&(${result}=${init}(${init}=0)),${result}}catch(${caught}){throw ${error}=[${caught}],${caught}}finally{__hearthLoading--}};`,
    );
}
