import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Logger } from '../core/log.js';
import { packageRoot } from '../util/paths.js';

const gzipAsync = promisify(gzip);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Below this, gzip's header costs more than it saves. */
const MIN_GZIP_BYTES = 512;

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** Present when it is smaller than the body. */
  readonly gzip: Buffer | undefined;
}

/** Every file the pages load, under one content-derived id: URLs change whenever any file does, so each can be cached for a year. */
export interface AssetBundle {
  readonly id: string;
  readonly files: ReadonlyMap<string, Asset>;
  /** The JS modules, for `<link rel=modulepreload>` so a phone fetches them in parallel instead of import by import. */
  readonly modules: readonly string[];
}

/** The browser code of the pages, plain ES modules with no build step. */
export const ASSETS_DIR = join(packageRoot(), 'src', 'web', 'assets');

interface VendorFile {
  readonly name: string;
  /** The file's path, found through Node's resolution so a hoisted node_modules works too. */
  readonly path: (resolve: (specifier: string) => string) => string;
}

/** preact, its hooks and htm, served from node_modules; bare `preact` imports are pointed at the served file. */
const VENDOR: readonly VendorFile[] = [
  { name: 'vendor/preact.js', path: (resolve) => resolve('preact') },
  { name: 'vendor/hooks.js', path: (resolve) => resolve('preact/hooks') },
  // htm's exports give CommonJS to require(); its ES module sits beside it.
  { name: 'vendor/htm.js', path: (resolve) => join(dirname(resolve('htm')), 'htm.mjs') },
  // The history dialog's charts (uplot's package exports give its ES module to `import`, CommonJS to require()).
  { name: 'vendor/uplot.js', path: (resolve) => join(dirname(resolve('uplot')), 'uPlot.esm.js') },
  { name: 'vendor/uplot.css', path: (resolve) => join(dirname(resolve('uplot')), 'uPlot.min.css') },
];

/**
 * Whole packages whose ES build is a tree of modules, served under `vendor/<name>/`: the `yaml` parser for the
 * automation editor's YAML mode (loaded only there).
 */
const VENDOR_TREES: readonly VendorFile[] = [
  { name: 'vendor/yaml/', path: (resolve) => join(dirname(resolve('yaml')), '..', 'browser', 'dist') },
];

/** Modules loaded on demand (the history and last-runs dialogs): not preloaded with the dashboard. */
const LAZY_MODULES: ReadonlySet<string> = new Set([
  'history.js',
  'traces.js',
  'modal.js',
  'vendor/uplot.js',
  // The settings, insight and developer-tools pages' shared modules (their entries are in app-paths.ts).
  'app-common.js',
  'automation-editor.js',
  'charts.js',
  'logbook-words.js',
  'period-picker.js',
]);

/**
 * Loads, rewrites and gzips the assets once, on the first page view rather than at start-up, so the hub
 * starts as fast without the web UI being used. Later views share the result.
 */
export class Assets {
  private loading: Promise<AssetBundle> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly dir = ASSETS_DIR,
  ) {}

  bundle(): Promise<AssetBundle> {
    this.loading ??= this.load().catch((err: unknown) => {
      // Let a later view try again (a file briefly missing during an upgrade).
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async load(): Promise<AssetBundle> {
    const sources = new Map<string, Buffer>();
    for (const name of (await readdir(this.dir)).sort()) {
      if (TYPES[extname(name)] !== undefined) sources.set(name, await readFile(join(this.dir, name)));
    }
    const require = createRequire(import.meta.url);
    for (const v of VENDOR) {
      const text = await readFile(
        v.path((specifier) => require.resolve(specifier)),
        'utf8',
      );
      sources.set(v.name, Buffer.from(vendorText(text)));
    }
    for (const tree of VENDOR_TREES) {
      const root = tree.path((specifier) => require.resolve(specifier));
      for (const file of (await readdir(root, { recursive: true })).sort()) {
        if (file.endsWith('.js')) sources.set(tree.name + file.split('\\').join('/'), await readFile(join(root, file)));
      }
    }
    const hash = createHash('sha256');
    for (const [name, body] of sources) hash.update(name).update('\0').update(body).update('\0');
    const files = new Map<string, Asset>();
    for (const [name, body] of sources) {
      const zipped = body.length >= MIN_GZIP_BYTES ? await gzipAsync(body, { level: 9 }) : undefined;
      files.set(name, {
        type: TYPES[extname(name)] as string,
        body,
        gzip: zipped !== undefined && zipped.length < body.length ? zipped : undefined,
      });
    }
    const id = hash.digest('hex').slice(0, 12);
    this.log.debug({ id, files: files.size }, 'web assets loaded');
    return {
      id,
      files,
      modules: [...files.keys()].filter((n) => n.endsWith('.js') && !LAZY_MODULES.has(n) && !n.startsWith('vendor/yaml/')),
    };
  }
}

/** Points bare `preact` imports at the served copy and drops the source-map comment (the maps are not served). */
export function vendorText(text: string): string {
  return text.replace(/(\bfrom\s*)(["'])preact\2/g, '$1$2./preact.js$2').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
}
