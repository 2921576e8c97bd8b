/**
 * The environment for a child process the tests start through tsx, without tap's coverage collection:
 * tsx transforms the sources differently from tap's own loader, and the V8 ranges of two transforms of
 * one file do not merge, so the coverage report can drop whole files. (tap's loader in the child would
 * avoid that, but costs seconds per start.)
 */
export function withoutCoverage(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.NODE_V8_COVERAGE;
  return out;
}
