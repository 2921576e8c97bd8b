import { execFile } from 'node:child_process';
import { packageRoot } from '../../src/util/paths.js';

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

/**
 * Runs a TypeScript file of the tests as a child of its own (through tsx, from the package root, without
 * coverage) with `nodeFlags` before it and `args` after it. Resolves with its stdout; rejects with its stderr
 * when it fails or outlives `deadlineMs`.
 */
export function runTsChild(
  script: string,
  nodeFlags: readonly string[],
  args: readonly string[] = [],
  deadlineMs = 30_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeFlags, '--import', 'tsx', script, ...args],
      // V8's traces can run to megabytes of stdout.
      { cwd: packageRoot(), env: withoutCoverage(process.env), timeout: deadlineMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}
