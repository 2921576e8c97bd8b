import { setFlagsFromString } from 'node:v8';

/**
 * Sets V8 flags in the running process, unless node's command line has a flag matching `given`: what the user
 * chose there wins. `hearth serve` sets its V8 flags this way rather than on node's command line because Node
 * refuses them in NODE_OPTIONS, so `npx hearth serve` gets them too. Returns whether the flags were set.
 */
export function setV8FlagsUnlessGiven(execArgv: readonly string[], given: RegExp, flags: readonly string[]): boolean {
  if (execArgv.some((flag) => given.test(flag))) return false;
  for (const flag of flags) setFlagsFromString(flag);
  return true;
}
