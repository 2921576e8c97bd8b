import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stubbed } from './matter-stubs.mjs';

// Matter's standard data model (`Matter` of @matter/model) is built as matter.js loads: a model object tree for every
// cluster (141), device type (92), datatype and semantic namespace of the specification, beside the element trees it
// is built from. The bridge serves some 50 clusters; matter.js imports each cluster it has a behaviour for (its
// @matter/types cluster is made from that cluster's model), and looks the rest up by id or name only to decode or name
// what a peer sends. So the bundle's model has the clusters and device types some bundled module imports by name,
// the clusters those are derived from or borrow a datatype of, and every element that is neither (datatypes, global
// attributes, semantic namespaces): a first build (without the model cut) finds the modules and their imports. A
// cluster missing here that a module needs fails the build (esbuild: no matching export), and so does a change in how
// matter.js lists the model (the checks below).
export const MODEL_DIR = join('model', 'dist', 'esm', 'standard', 'elements');
const MODEL_KINDS = /^const (\w+) = new (\w+)\(definitions\.\1\);$/gm;

/** Names of the standard model's elements the bundled modules import, from the inputs of a first build. */
export async function modelImports(inputs) {
  const names = new Set();
  const from = /import\s*\{([^}]*)\}\s*from\s*"(?:@matter\/model|[^"]*standard\/elements\/(?:models|definitions)\.js)"/g;
  for (const file of Object.keys(inputs)) {
    if (!file.includes('node_modules/@matter/') || stubbed(file)) continue;
    for (const m of (await readFile(file, 'utf8')).matchAll(from))
      for (const spec of m[1].split(',')) names.add(spec.trim().split(/\s+as\s+/)[0]);
  }
  return names;
}

/** The standard model's element files (name, kind and the clusters it refers to), by file name. */
function modelElements(dir) {
  const models = readFileSync(join(dir, 'models.js'), 'utf8');
  const kinds = new Map([...models.matchAll(MODEL_KINDS)].map((m) => [m[1], m[2]]));
  const elements = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.element.js'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    const name = /^export \{\n {2}(\w+)\n\};$/m.exec(text)?.[1];
    if (name === undefined || !kinds.has(name))
      throw new Error(`@matter/model: ${file} exports no element models.js builds: see MODEL_DIR`);
    // Its base (`type: "ModeBase"` on the cluster) and the clusters whose datatypes it uses ("ModeSelect.SemanticTagStruct").
    const refers = new Set([...text.matchAll(/type: "(\w+)(?:\.\w+)*"/g)].map((m) => m[1]));
    elements.set(file, { name, kind: kinds.get(name), refers });
  }
  if (elements.size !== kinds.size) throw new Error('@matter/model: models.js builds elements its folder has no file for: see MODEL_DIR');
  return elements;
}

// The clusters of the device types in files of their own (LAZY_GROUPS, scripts/bundle-matter.mjs): their models are
// made and added to the standard model when the file loads, by the module that makes their @matter/types cluster
// (types/dist/esm/clusters/<file>.js; MODEL_PATCHES), not as the bundle loads: [name, that module, its element file].
export const LAZY_MODELS = [
  ['DoorLock', 'door-lock', 'door-lock-cluster'],
  ['Thermostat', 'thermostat', 'thermostat-cluster'],
  ['WindowCovering', 'window-covering', 'window-covering-cluster'],
  ['ColorControl', 'color-control', 'color-control'],
];

/** Changes to matter.js's code for LAZY_MODELS (part of MATTER_PATCHES, scripts/matter-patches.mjs). */
export const MODEL_PATCHES = LAZY_MODELS.map(([name, file, element]) => ({
  file: `types/dist/esm/clusters/${file}.js`,
  from: `import { ${name} as ${name}Model } from "@matter/model";\n`,
  to:
    `import { ClusterModel as HearthClusterModel, Matter as HearthMatter } from "@matter/model";\n` +
    `import { ${name} as ${name}Definition } from "../../../../model/dist/esm/standard/elements/${element}.element.js";\n` +
    `const ${name}Model = new HearthClusterModel(${name}Definition);\nHearthMatter.children.push(${name}Model);\n`,
}));

/**
 * The plugin that leaves out of the standard model the clusters and device types nothing imports (see MODEL_DIR),
 * and LAZY_MODELS.
 */
export function standardModel(imported, dir) {
  const elements = modelElements(dir);
  const byName = new Map([...elements.values()].map((e) => [e.name, e]));
  const lazy = new Set(LAZY_MODELS.map(([name]) => name));
  const cut = (e) => e.kind === 'ClusterModel' || e.kind === 'DeviceTypeModel' || e.kind === 'SemanticNamespaceModel';
  const keep = new Set([...byName.values()].filter((e) => !cut(e) || (imported.has(e.name) && !lazy.has(e.name))).map((e) => e.name));
  for (const name of keep) for (const other of byName.get(name).refers) if (byName.has(other) && !keep.has(other)) keep.add(other);
  // (A Set visits what is added while it is iterated: bases of bases are kept too.)
  for (const name of lazy) {
    if (!byName.has(name)) throw new Error(`LAZY_MODELS: @matter/model has no ${name}: see MODEL_DIR`);
    if (keep.has(name)) throw new Error(`LAZY_MODELS: ${name} is a base or datatype of a cluster matter.cjs keeps`);
  }
  const dropped = new Set([...byName.keys()].filter((name) => !keep.has(name)));
  return {
    name: 'matter-standard-model',
    setup(b) {
      b.onLoad({ filter: /[\\/]standard[\\/]elements[\\/](definitions|models)\.js$/ }, async (args) => {
        if (!args.path.endsWith(join(MODEL_DIR, 'definitions.js')) && !args.path.endsWith(join(MODEL_DIR, 'models.js'))) return undefined;
        const text = await readFile(args.path, 'utf8');
        let out;
        if (args.path.endsWith('definitions.js')) {
          const lines = text.split('\n').filter((line) => {
            const file = /^export \* from "\.\/([\w-]+\.element\.js)";$/.exec(line)?.[1];
            if (file === undefined) return true;
            if (!elements.has(file)) throw new Error(`@matter/model: definitions.js exports ${file}, unknown: see MODEL_DIR`);
            return !dropped.has(elements.get(file).name);
          });
          out = lines.join('\n');
        } else {
          let removed = 0;
          out = text
            .replace(MODEL_KINDS, (line, name) => {
              if (!dropped.has(name)) return line;
              removed++;
              return '';
            })
            .replace(/^ {2}(\w+),?$/gm, (line, name) => (dropped.has(name) ? '' : line));
          if (removed !== dropped.size)
            throw new Error('@matter/model: models.js no longer builds each element on a line of its own: see MODEL_DIR');
        }
        return { contents: out, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
