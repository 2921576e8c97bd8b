import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * Which folder may import which (docs/architecture.md, "Layers"). A folder may import itself and the folders listed for it;
 * anything else fails here, naming the file, the import and the rule. `import type` counts: a type import still
 * ties the lower layer's meaning to the upper one's.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  util: ['core'],
  version: [],
  config: ['core', 'util'],
  storage: ['core', 'util'],
  recorder: ['core', 'util', 'config', 'storage', 'integration'],
  domains: ['core', 'util'],
  registry: ['core', 'util', 'config', 'storage'],
  auth: ['core', 'util', 'config', 'storage'],
  restore: ['core', 'util', 'storage', 'domains'],
  template: ['core', 'util', 'config', 'registry'],
  integration: ['core', 'util', 'config', 'registry', 'template'],
  helpers: ['core', 'util', 'config', 'storage', 'domains', 'integration'],
  'core-config': ['core', 'util', 'config', 'registry', 'integration'],
  drivers: ['core', 'util', 'config', 'storage', 'domains', 'integration'],
  trace: ['core', 'util'],
  'mobile-app': ['core', 'util', 'config', 'storage', 'domains', 'integration'],
  zeroconf: ['core', 'util', 'version', 'config', 'storage', 'integration'],
  homekit: ['core', 'util', 'config', 'storage', 'integration'],
  matter: ['core', 'util', 'version', 'config', 'storage', 'integration'],
  automation: ['core', 'util', 'config', 'storage', 'domains', 'registry', 'restore', 'template', 'trace', 'integration'],
  'template-entities': ['core', 'util', 'config', 'storage', 'domains', 'registry', 'restore', 'template', 'automation', 'integration'],
  mqtt: ['core', 'util', 'version', 'config', 'storage', 'domains', 'registry', 'template', 'integration'],
  thermostat: ['core', 'util', 'config', 'domains', 'automation', 'integration'],
  presence: ['core', 'util', 'config', 'storage', 'domains', 'automation', 'integration'],
  group: ['core', 'util', 'config', 'domains', 'automation', 'integration'],
  notify: ['core', 'util', 'config', 'storage', 'domains', 'template', 'automation', 'integration'],
  http: ['core', 'util', 'config', 'auth', 'registry', 'recorder'],
  api: ['core', 'util', 'version', 'config', 'domains', 'registry', 'auth', 'http', 'recorder', 'template'],
  web: ['core', 'util', 'auth', 'http'],
  sections: [
    'config',
    'auth',
    'registry',
    'integration',
    'drivers',
    'automation',
    'recorder',
    'mqtt',
    'helpers',
    'template-entities',
    'thermostat',
    'presence',
    'group',
    'notify',
    'mobile-app',
    'zeroconf',
    'homekit',
    'matter',
    'core-config',
  ],
  hub: [
    'core',
    'util',
    'version',
    'config',
    'storage',
    'domains',
    'registry',
    'auth',
    'restore',
    'template',
    'integration',
    'helpers',
    'recorder',
    'drivers',
    'trace',
    'automation',
    'template-entities',
    'thermostat',
    'mqtt',
    'mobile-app',
    'zeroconf',
    'homekit',
    'presence',
    'matter',
    'http',
    'api',
    'web',
    'sections',
    'core-config',
  ],
  cli: ['core', 'util', 'version', 'config', 'storage', 'auth', 'http', 'hub', 'sections'],
};

/** src/<folder>/... -> folder; src/hub.ts -> hub; src/cli.ts -> cli; drivers/... -> drivers. */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'drivers') return 'drivers';
  if (parts.length === 2) return (parts[1] ?? '').replace(/\.ts$/, '');
  return parts[1] ?? '';
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import of a file, as repository paths of .ts files. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(packageRoot(), file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts'))));
}

const FILES = [...sourceFiles('src'), ...sourceFiles('drivers')];
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));

t.test('every folder imports only the layers below it', async (t) => {
  const broken: string[] = [];
  for (const [file, imports] of GRAPH) {
    const from = layerOf(file);
    const allowed = LAYERS[from];
    if (allowed === undefined) {
      broken.push(`${file}: folder "${from}" has no row in LAYERS (add it to the table and to docs/architecture.md)`);
      continue;
    }
    for (const target of imports) {
      const to = layerOf(target);
      if (to !== from && !allowed.includes(to))
        broken.push(`${file} imports ${target}: ${from} may import only ${allowed.join(', ') || 'itself'}`);
    }
  }
  t.same(broken, [], 'layer violations');
});

t.test('no import cycles', async (t) => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of GRAPH.get(file) ?? []) {
      if (!GRAPH.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of GRAPH.keys()) if (state.get(file) === undefined) visit(file);
  t.same(cycles, [], 'import cycles');
});

t.test('check-config never loads the HTTP server or the native uWS binary', async (t) => {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of GRAPH.get(file) ?? []) walk(next);
  };
  walk('src/cli/check-config.ts');
  t.ok(seen.has('src/sections.ts'), 'check-config reaches the section validators');
  t.same(
    [...seen].filter((f) => f.startsWith('src/http/') || f.startsWith('src/api/') || f === 'src/hub.ts'),
    [],
    'no module of the HTTP layer, the API or the hub',
  );
  const uws = [...seen].filter((f) => readFileSync(join(packageRoot(), f), 'utf8').includes("'uWebSockets.js'"));
  t.same(uws, [], 'no module that imports uWebSockets.js');
});
