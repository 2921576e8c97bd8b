import type { Core } from '../core/core.js';
import type { Registries } from '../registry/index.js';
import type { PyZone } from './datetime.js';
import { sequenceFilters } from './filters-sequences.js';
import { BYTES_FILTERS, BYTES_FUNCTIONS } from './functions-bytes.js';
import { COLLECTION_FUNCTIONS, COLLECTION_GLOBALS, COLLECTION_TESTS, items } from './functions-collections.js';
import { FUNCTIONAL_FILTERS, FUNCTIONAL_FUNCTIONS } from './functions-functional.js';
import { geoFunctions, type HomeLocation } from './functions-geo.js';
import { MATH_CONSTANTS, MATH_FILTERS, MATH_FUNCTIONS } from './functions-math.js';
import { MISC_FILTERS, MISC_GLOBALS } from './functions-misc.js';
import { registryFunctions } from './functions-registry.js';
import { stateFunctions } from './functions-states.js';
import { STRPTIME_FUNCTIONS } from './functions-strptime.js';
import { regexFindall, regexFindallIndex, regexMatch, regexReplace, regexSearch } from './functions-text.js';
import { timeFunctions } from './functions-time.js';
import { bool, float, fromJson, iif, int, isNumber, minMax, round, toJson } from './functions-values.js';
import { type NjEnvironment, nj } from './nunjucks.js';
import { templateCallable } from './objects.js';
import { installSandbox } from './sandbox.js';
import { checkStringSize, step } from './scope.js';
import { statesFilter, statesGlobal } from './states.js';
import { TESTS } from './tests.js';

type Fn = (...args: unknown[]) => unknown;

export interface EnvironmentDeps {
  readonly core: Core;
  readonly registries: Registries | undefined;
  readonly zone: PyZone;
  readonly home: () => HomeLocation | undefined;
}

/** Every function a template calls counts as work, and strings going in and out are bounded. */
function guarded(fn: Fn): Fn {
  return templateCallable((...args: unknown[]) => {
    step();
    for (const arg of args) if (typeof arg === 'string') checkStringSize(arg);
    const out = fn(...args);
    if (typeof out === 'string') checkStringSize(out);
    return out;
  });
}

/** nunjucks' own filters that are kept: they read no attributes and build nothing unbounded. */
const KEPT_NUNJUCKS_FILTERS = [
  'capitalize',
  'default',
  'd',
  'escape',
  'e',
  'forceescape',
  'lower',
  'upper',
  'nl2br',
  'safe',
  'striptags',
  'trim',
  'truncate',
  'urlize',
  'wordcount',
];

/**
 * A nunjucks environment with Home Assistant's globals, filters and tests over one hub, in the sandbox
 * (sandbox.ts). nunjucks' globals (range, cycler, joiner) and tests are replaced, and its filters that
 * read attributes or lack Python's semantics are replaced by hearth's.
 */
export function environmentFor(deps: EnvironmentDeps): NjEnvironment {
  installSandbox();
  const env = new (nj().nunjucks.Environment)(null, { autoescape: false, dev: true, throwOnUndefined: false });
  for (const key of Object.keys(env.globals)) delete env.globals[key];
  for (const key of Object.keys(env.tests)) delete env.tests[key];
  for (const key of Object.keys(env.filters)) {
    if (!KEPT_NUNJUCKS_FILTERS.includes(key)) delete env.filters[key];
  }
  for (const key of KEPT_NUNJUCKS_FILTERS) {
    const original = env.filters[key] as Fn | undefined;
    if (original !== undefined) env.addFilter(key, guarded(original));
  }

  const states = stateFunctions(deps.core.states);
  const time = timeFunctions(deps.zone);
  const registry = registryFunctions(deps.core.devices, deps.registries);
  const geo = geoFunctions(deps.core.states, deps.home);
  const values: Record<string, Fn> = {
    float,
    int,
    bool,
    round,
    iif,
    is_number: isNumber,
    regex_match: regexMatch,
    regex_search: regexSearch,
    regex_replace: regexReplace,
    regex_findall: regexFindall,
    regex_findall_index: regexFindallIndex,
    to_json: toJson,
    tojson: toJson,
    from_json: fromJson,
  };

  // Functions that are both a global and a filter in Home Assistant.
  const both: Record<string, Fn> = {
    ...values,
    ...states,
    ...time,
    ...registry,
    ...MATH_FUNCTIONS,
    ...COLLECTION_FUNCTIONS,
    ...FUNCTIONAL_FUNCTIONS,
    ...BYTES_FUNCTIONS,
    ...STRPTIME_FUNCTIONS,
    distance: geo.distance as Fn,
    slugify: MISC_FILTERS.slugify as Fn,
    md5: MISC_FILTERS.md5 as Fn,
    sha1: MISC_FILTERS.sha1 as Fn,
    sha256: MISC_FILTERS.sha256 as Fn,
    sha512: MISC_FILTERS.sha512 as Fn,
  };
  for (const [name, fn] of Object.entries(both)) {
    env.addGlobal(name, guarded(fn));
    env.addFilter(name, guarded(fn));
  }
  env.addGlobal('states', statesGlobal(deps.core.states));
  env.addGlobal('min', guarded(minMax('min', true)));
  env.addGlobal('max', guarded(minMax('max', true)));
  env.addFilter('min', guarded(minMax('min', false)));
  env.addFilter('max', guarded(minMax('max', false)));
  for (const [name, fn] of Object.entries(MISC_GLOBALS)) env.addGlobal(name, guarded(fn));
  for (const [name, fn] of Object.entries(MISC_FILTERS)) env.addFilter(name, guarded(fn));
  for (const [name, fn] of Object.entries({ ...MATH_FILTERS, ...FUNCTIONAL_FILTERS, ...BYTES_FILTERS })) env.addFilter(name, guarded(fn));
  for (const [name, fn] of Object.entries(COLLECTION_GLOBALS)) env.addGlobal(name, guarded(fn));
  for (const [name, value] of Object.entries(MATH_CONSTANTS)) env.addGlobal(name, value);
  env.addFilter('items', guarded(items as Fn));
  env.addGlobal('closest', guarded(geo.closest as Fn));
  env.addFilter('closest', guarded(geo.closest_filter as Fn));
  env.addFilter('states', guarded(statesFilter(deps.core.states)));

  const tests: Record<string, Fn> = { ...TESTS, ...(COLLECTION_TESTS as Record<string, Fn>) };
  tests.is_state = states.is_state as Fn;
  tests.is_state_attr = states.is_state_attr as Fn;
  tests.has_value = states.has_value as Fn;
  for (const [name, fn] of Object.entries(tests)) env.addTest(name, guarded(fn));

  const lookupFilter = (name: string): Fn | undefined => (Object.hasOwn(env.filters, name) ? (env.filters[name] as Fn) : undefined);
  const lookupTest = (name: string): Fn | undefined => (Object.hasOwn(env.tests, name) ? (env.tests[name] as Fn) : undefined);
  for (const [name, fn] of Object.entries(sequenceFilters(lookupFilter, lookupTest))) env.addFilter(name, guarded(fn));
  return env;
}
