// hearth/matter.cjs and its device groups' files, for scripts/bundle.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { namesAtLoad, namesInSource } from './bundle-names.mjs';
import { MODEL_DIR, modelImports, standardModel } from './matter-model.mjs';
import { matterPatches, patched } from './matter-patches.mjs';
import { assertAllUsed, matterStubs } from './matter-stubs.mjs';

// matter.js goes into a file of its own too (hearth/matter.cjs), loaded only with a `matter:` section: the modules
// src/matter/lib.ts imports (its MATTER_MODULES) and what they import, some 1,400 modules and 7 MB of source text
// from node_modules, become one minified file of 2.0 MB (docs/performance.md, "Matter bridge"), which runs them all
// when lib.ts first requires it (see matterEntries), with a standard data model of only the clusters it serves (see
// MODEL_DIR); the device types of LAZY_GROUPS go into files of their own, loaded when the bridge first needs one.
// matter.js reads function and class names (its log formats), hence keepNames (see namesAtLoad).
// lib.ts's one import of matter.js (matterModule) becomes a lookup in that file (SOURCE_EDITS).
export const MATTER_FILE = './matter.cjs';

// The bundle's entry imports the modules lib.ts loads (its MATTER_MODULES) statically, so that esbuild puts matter.js's
// modules one after the other at the bundle's top level, as one scope, instead of each in a function of its own that
// runs on first import: it can then leave out what nothing uses (down to functions and classes of a module), and
// there is no closure, context and export object for each of some 1,400 modules. The bundle runs them all as it
// loads, in the order of their imports; first `hearth-matter:settings`, which sets lib.ts's MATTER_CONFIG before
// matter.js builds its default environment (matter.js refuses those settings after). Of the package indexes lib.ts
// imports, the bundle exports only the names lib.ts takes (its MATTER_NAMES, `hearth-matter:<path>`).
// (Telling esbuild that matter.js's re-exporting index modules have no side effects would leave out more modules, but
// matter.js registers classes as their modules load, e.g. a model class for each element tag, which nothing
// imports by name: a bridged endpoint then fails with `Unknown element tag "condition"`.)
const SETTINGS = 'settings';

function matterEntries({ names, settings }, resolveDir) {
  return {
    name: 'matter-entries',
    setup(b) {
      b.onResolve({ filter: /^hearth-matter:/ }, (args) => ({
        path: args.path.slice('hearth-matter:'.length),
        namespace: 'hearth-matter',
      }));
      b.onLoad({ filter: /.*/, namespace: 'hearth-matter' }, (args) => ({
        contents:
          args.path === SETTINGS
            ? `import { config } from "@matter/nodejs/config";\nObject.assign(config, ${JSON.stringify(settings)});`
            : `export { ${names[args.path].join(', ')} } from ${JSON.stringify(`@matter/${args.path}`)};`,
        resolveDir,
        loader: 'js',
      }));
    },
  };
}

// Device types a hub pays for only when it bridges one: the groups of MATTER_MODULES below go into files of their own,
// hearth/matter-<group>.cjs, loaded the first time the bridge takes a name of theirs (a door lock's device type, say).
// Door locks, thermostats and window coverings with their behaviours are 2.1 MB of heap as matter.js loads, which a hub
// that bridges only lights, switches and sensors no longer pays (docs/performance.md, "Matter bridge"). A group's file
// has only the modules hearth/matter.cjs has not: what it imports of the rest (matter.js's core) it takes from that
// file's `shared`, which exports those names and nothing more, so both keep one copy of each module and its state. For
// a lazy module, matter.cjs's `load` gives an object of getters, one for each name the module exports, which load its
// group's file when first read; lib.ts keeps them as getters. The build fails if two groups would each have a copy of a
// module matter.cjs has not: those belong in one group.
const LAZY_GROUPS = {
  'door-lock': ['main/devices/door-lock'],
  thermostat: ['main/devices/thermostat', 'main/behaviors/thermostat'],
  'window-covering': ['main/devices/window-covering', 'main/behaviors/window-covering'],
  color: ['main/devices/color-temperature-light', 'main/devices/extended-color-light'],
};
const lazyFile = (group) => `./matter-${group}.cjs`;
const OWN_FILE = /^\.\/matter(-[\w-]+)?\.cjs$/;

/** A matter.js file by its path under node_modules, as the groups' files ask matter.cjs for it. */
const sharedKey = (file) =>
  file.slice(file.lastIndexOf(`node_modules${file.includes('\\') ? '\\' : '/'}`) + 'node_modules/'.length).replaceAll('\\', '/');

/**
 * What `text` (an importer) takes from `specifier`: the names, or '*' for all of them (a namespace import, `export *`,
 * import()).
 * matter.js's files are esbuild's ES module output: one import or export statement for each module imported.
 */
function importedNames(text, specifier) {
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const names = new Set();
  const statement = new RegExp(
    `\\b(?:import|export)\\s*([^'";]*?)\\s*from\\s*["']${quoted}["']|\\bimport\\s*["']${quoted}["']|\\bimport\\(\\s*["']${quoted}["']`,
    'g',
  );
  let found = false;
  for (const m of text.matchAll(statement)) {
    found = true;
    const clause = m[1];
    if (clause === undefined) {
      if (m[0].includes('(')) return '*';
      continue;
    }
    if (clause.includes('*')) return '*';
    const braces = /\{([^}]*)\}/.exec(clause);
    for (const spec of braces?.[1].split(',') ?? []) if (spec.trim() !== '') names.add(spec.trim().split(/\s+as\s+/)[0]);
    if (/^[\w$]+/.test(clause)) names.add('default');
  }
  // An import these statements do not show (a require, say): all of the module.
  return found ? names : '*';
}

/**
 * esbuild plugin for a group's file: each import of a module matter.cjs has (`core`, by file) becomes a require of
 * matter.cjs's `shared`; what is taken from it is noted in `boundary` (file: a Set of names, or '*').
 */
function coreImports(core, boundary) {
  const texts = new Map();
  return {
    name: 'matter-core-imports',
    setup(b) {
      b.onResolve({ filter: OWN_FILE }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.hearthCore === true || args.namespace === 'hearth-core' || args.importer === '') return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          namespace: args.namespace,
          pluginData: { hearthCore: true },
        });
        if (found.errors.length > 0 || found.external || !core.has(found.path)) return undefined;
        if (!texts.has(args.importer))
          texts.set(args.importer, args.namespace === 'file' ? patched(args.importer, await readFile(args.importer, 'utf8')) : '');
        const names = args.namespace === 'file' ? importedNames(texts.get(args.importer), args.path) : '*';
        const had = boundary.get(found.path) ?? new Set();
        boundary.set(found.path, had === '*' || names === '*' ? '*' : new Set([...had, ...names]));
        return { path: found.path, namespace: 'hearth-core' };
      });
      b.onLoad({ filter: /.*/, namespace: 'hearth-core' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(MATTER_FILE)}).shared(${JSON.stringify(sharedKey(args.path))});`,
        loader: 'js',
      }));
    },
  };
}

/** How the entries import one of MATTER_MODULES: of a package index, only the names lib.ts takes (see matterEntries). */
const matterSpecifier = (names, path) => JSON.stringify(`${path in names ? 'hearth-matter:' : '@matter/'}${path}`);

/** matter.cjs's entry: MATTER_MODULES but the lazy ones, the lazy ones as getters, and `shared` for the groups' files. */
function coreEntry({ paths, names, lazyNames, boundary }) {
  const imports = paths.map((path, i) => `import * as m${i} from ${matterSpecifier(names, path)};`);
  const entries = paths.map((path, i) => `[${JSON.stringify(path)}, m${i}]`);
  // In a fixed order (the groups' builds find them in any): the same sources give the same file.
  const sorted = [...boundary].sort(([a], [b]) => (sharedKey(a) < sharedKey(b) ? -1 : 1));
  const shared = sorted.map(([file, taken], i) => {
    if (taken === '*') return [`import * as s${i} from ${JSON.stringify(file)};`, `[${JSON.stringify(sharedKey(file))}, () => s${i}]`];
    const list = [...taken].sort();
    return [
      `import { ${list.map((name, j) => `${name} as s${i}_${j}`).join(', ')} } from ${JSON.stringify(file)};`,
      `[${JSON.stringify(sharedKey(file))}, () => ({ ${list.map((name, j) => `${JSON.stringify(name)}: s${i}_${j}`).join(', ')} })]`,
    ];
  });
  const groupOf = Object.entries(LAZY_GROUPS).flatMap(([group, members]) => members.map((path) => [path, group]));
  return `import ${JSON.stringify(`hearth-matter:${SETTINGS}`)};
${imports.join('\n')}
${shared.map((s) => s[0]).join('\n')}
const modules = new Map([${entries.join(',\n')}]);
const groups = new Map([${Object.keys(LAZY_GROUPS)
    .map((group) => `[${JSON.stringify(group)}, () => require(${JSON.stringify(lazyFile(group))}).modules]`)
    .join(',\n')}]);
function lazyModule(path, group, names) {
  let module;
  const getters = Object.create(null);
  for (const name of names)
    Object.defineProperty(getters, name, {
      enumerable: true,
      get() {
        module ??= groups.get(group)().get(path);
        return module[name];
      },
    });
  return getters;
}
${groupOf.map(([path, group]) => `modules.set(${JSON.stringify(path)}, lazyModule(${JSON.stringify(path)}, ${JSON.stringify(group)}, ${JSON.stringify(lazyNames.get(path))}));`).join('\n')}
const sharedModules = new Map([${shared.map((s) => s[1]).join(',\n')}]);
export function shared(key) {
  const module = sharedModules.get(key);
  if (module === undefined) throw new Error('hearth/matter.cjs shares no module ' + key);
  return module();
}
export function load(path) {
  const module = modules.get(path);
  if (module === undefined) throw new Error('hearth/matter.cjs has no module @matter/' + path);
  return Promise.resolve(module);
}`;
}

/** A group's file: its modules by path, each as a module namespace. */
const groupEntry = (paths) =>
  `${paths.map((path, i) => `import * as m${i} from ${JSON.stringify(`@matter/${path}`)};`).join('\n')}
export const modules = new Map([${paths.map((path, i) => `[${JSON.stringify(path)}, m${i}]`).join(', ')}]);`;

/**
 * hearth/matter.cjs: `load(path)` gives one of lib.ts's MATTER_MODULES from the bundle; and a file of each of
 * LAZY_GROUPS, hearth/matter-<group>.cjs.
 */
export async function bundleMatter(buildDir, outdir, COMMON) {
  const lib = await import(pathToFileURL(join(buildDir, 'src', 'matter', 'lib.js')).href);
  const names = Object.assign(Object.create(null), lib.MATTER_NAMES);
  const lazy = Object.values(LAZY_GROUPS).flat();
  for (const path of lazy)
    if (!lib.MATTER_MODULES.includes(path)) throw new Error(`LAZY_GROUPS: ${path} is not one of lib.ts's MATTER_MODULES`);
  const options = {
    ...COMMON,
    format: 'cjs',
    keepNames: true,
    minifySyntax: true,
    legalComments: 'linked',
    // matter.js's Bun storage driver, never loaded under Node.
    external: ['bun:*'],
    charset: 'ascii',
    // matter.js's modules are ES modules, strict code, as the bundle is too. A function of sloppy code has two more
    // properties (`arguments`, `caller`), which a function whose name is kept (namesAtLoad) holds in a dictionary of
    // its own: 450 bytes a function instead of 260, for some 3,000 functions.
    banner: { js: '"use strict";' },
  };
  const virtual = matterEntries({ names, settings: lib.MATTER_CONFIG }, buildDir);
  const stdin = (contents) => ({ contents, resolveDir: buildDir, sourcefile: 'matter-modules.js', loader: 'js' });
  const entryOf = (boundary) => coreEntry({ paths: lib.MATTER_MODULES.filter((p) => !lazy.includes(p)), names, lazyNames, boundary });
  // A first build of every module finds which of the standard model's elements the bundled modules import (see
  // MODEL_DIR), and the names each lazy module exports (an entry point of its own each, as ES modules).
  const lazyNames = new Map();
  const stubsUsed = new Set();
  const first = await build({
    ...options,
    format: 'esm',
    entryPoints: [{ in: 'hearth-lazy:all', out: 'all' }, ...lazy.map((path, i) => ({ in: `hearth-lazy:${path}`, out: `lazy${i}` }))],
    outdir: join(outdir, 'matter-first'),
    plugins: [
      matterStubs(stubsUsed),
      matterPatches(),
      virtual,
      {
        name: 'matter-first',
        setup(b) {
          b.onResolve({ filter: /^hearth-lazy:/ }, (args) => ({ path: args.path.slice('hearth-lazy:'.length), namespace: 'hearth-lazy' }));
          b.onLoad({ filter: /.*/, namespace: 'hearth-lazy' }, (args) => ({
            contents:
              args.path === 'all'
                ? lib.MATTER_MODULES.map((path, i) => `export * as m${i} from ${matterSpecifier(names, path)};`).join('\n')
                : `export * from ${JSON.stringify(`@matter/${args.path}`)};`,
            resolveDir: buildDir,
            loader: 'js',
          }));
        },
      },
    ],
    write: false,
    metafile: true,
    sourcemap: false,
    legalComments: 'none',
  });
  for (const { entryPoint, exports } of Object.values(first.metafile.outputs)) {
    const path = entryPoint?.slice('hearth-lazy:'.length);
    if (!lazy.includes(path)) continue;
    if (exports.length === 0) throw new Error(`LAZY_GROUPS: @matter/${path} exports nothing`);
    lazyNames.set(path, exports);
  }
  for (const path of lazy) if (!lazyNames.has(path)) throw new Error(`LAZY_GROUPS: esbuild gave no exports of @matter/${path}`);
  const { inputs } = first.metafile;
  const models = Object.keys(inputs).find((file) => resolve(file).endsWith(join(MODEL_DIR, 'models.js')));
  if (models === undefined) throw new Error(`hearth/matter.cjs: matter.js has no standard model at @matter/${MODEL_DIR}`);
  const model = standardModel(await modelImports(inputs), dirname(resolve(models)));
  const plugins = [
    matterStubs(stubsUsed),
    matterPatches(),
    virtual,
    model,
    { name: 'matter-own-files', setup: (b) => b.onResolve({ filter: OWN_FILE }, (args) => ({ path: args.path, external: true })) },
  ];
  // matter.cjs's modules (as files), for the groups' files to take from it; then the groups' files, which say what
  // they take.
  const inputFiles = (result) =>
    new Set(
      Object.keys(result.metafile.inputs)
        .filter((f) => !f.includes(':') && f !== '<stdin>')
        .map((f) => resolve(f)),
    );
  const core = inputFiles(
    await build({
      ...options,
      stdin: stdin(entryOf(new Map())),
      outfile: join(outdir, MATTER_FILE),
      plugins,
      write: false,
      metafile: true,
      sourcemap: false,
    }),
  );
  const boundary = new Map();
  const owner = new Map();
  const outfiles = [join(outdir, MATTER_FILE)];
  for (const [group, paths] of Object.entries(LAZY_GROUPS)) {
    const outfile = join(outdir, lazyFile(group));
    const result = await build({
      ...options,
      stdin: { ...stdin(groupEntry(paths)), sourcefile: `matter-${group}.js` },
      outfile,
      plugins: [coreImports(core, boundary), matterStubs(stubsUsed), matterPatches(), model],
      metafile: true,
    });
    for (const file of inputFiles(result)) {
      const other = owner.get(file);
      if (other !== undefined && other !== group)
        throw new Error(`LAZY_GROUPS: ${file} would be in both ${lazyFile(other)} and ${lazyFile(group)}; put those in one group`);
      owner.set(file, group);
    }
    outfiles.push(outfile);
  }
  const result = await build({ ...options, stdin: stdin(entryOf(boundary)), outfile: join(outdir, MATTER_FILE), plugins, metafile: true });
  assertAllUsed(stubsUsed);
  // HEARTH_MATTER_METAFILE=<file>: esbuild's account of matter.cjs (each module's bytes in it, its imports), to find
  // what the bundle holds and why (docs/performance.md, "Matter bridge").
  if (process.env.HEARTH_MATTER_METAFILE) writeFileSync(process.env.HEARTH_MATTER_METAFILE, JSON.stringify(result.metafile));
  const final = inputFiles(result);
  if (final.size !== core.size || [...final].some((f) => !core.has(f)))
    throw new Error('hearth/matter.cjs: the modules shared with its groups brought in more modules; see LAZY_GROUPS');
  for (const outfile of outfiles) {
    // esbuild leaves characters beyond ASCII in regular expression literals as they are (matter.js has a few):
    // escapes keep the file Latin-1 (see below).
    const text = readFileSync(outfile, 'utf8').replace(/[\u0100-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    writeFileSync(outfile, namesAtLoad(namesInSource(text)));
  }
}
