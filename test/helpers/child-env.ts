/**
 * The environment for a child process the tests start through tsx, without coverage collection: tsx transforms
 * the sources differently from tap's own loader, and the V8 ranges of two transforms of one file do not merge,
 * so the report keeps one of them per file and can drop most of a file's coverage (seen: a file every WebSocket
 * test runs measured at 31 %). tap collects a child's coverage through its processinfo hook, which every child
 * inherits in NODE_OPTIONS, unless `_TAPJS_PROCESSINFO_COVERAGE_` is '0'; NODE_V8_COVERAGE alone does not stop it.
 */
export function withoutCoverage(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, _TAPJS_PROCESSINFO_COVERAGE_: '0' };
  delete out.NODE_V8_COVERAGE;
  return out;
}
