// Loads hap-nodejs without the three packages it requires at load time that hearth never runs, which were a third
// of what the bridge added to the hub's resident size (bench/homekit.ts; docs/performance.md):
// - `source-map-support/register` (hap-nodejs's index.js): installs a process-wide Error.prepareStackTrace that reads
//   and parses the source map of any file in a stack trace, hearth's 5 MB bundle map included, synchronously on the
//   event loop, and hooks process.emit for uncaught exceptions. hearth's own stack traces are not hap-nodejs's to
//   change.
// - `bonjour-hap` and `@homebridge/dbus-native` (lib/Advertiser.js): the Bonjour and Avahi/resolved advertisers.
//   hearth publishes with ciao, so their classes are never constructed; dbus-native alone pulls in xml2js, sax,
//   xmlbuilder, q and long, whose WebAssembly module made V8 bring its optimising compiler's code into memory.
// Each is put in Node's module cache as an empty module before hap-nodejs is required, so its `require` finds it
// there; using one anyway fails with an error that says so.
// The built hub loads none of this from node_modules: its bundle has hap-nodejs and the packages it runs minified in
// hearth/hap.cjs (ciao in hearth/ciao.cjs), built without the three (scripts/bundle.mjs), and writes that file's
// name into HAP_BUNDLE below.
import { createRequire, Module } from 'node:module';
import type * as HAP from 'hap-nodejs';

const NOT_LOADED = ['source-map-support/register', 'bonjour-hap', '@homebridge/dbus-native'] as const;

/** An exports object that explains itself when hap-nodejs reaches for a package hearth did not load. */
function absent(id: string): object {
  return new Proxy(Object.create(null) as object, {
    get(_target, key) {
      if (key === '__esModule' || typeof key === 'symbol') return undefined;
      throw new Error(`hearth loads hap-nodejs without ${id} (it advertises with ciao): ${String(key)} is not available`);
    },
  });
}

/** hap.cjs in the built hub (scripts/bundle.mjs replaces this line); empty when run from the sources. */
const HAP_BUNDLE = '';

let loaded: typeof HAP | undefined;

/** hap-nodejs, loaded once per process without the packages above. */
export function loadHap(): typeof HAP {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  if (HAP_BUNDLE !== '') {
    loaded = optionalsByType(require(HAP_BUNDLE) as typeof HAP);
    return loaded;
  }
  const main = require.resolve('hap-nodejs');
  if (require.cache[main] === undefined) {
    // Resolved from hap-nodejs's own folder, as its requires resolve them.
    const fromHap = createRequire(main);
    for (const id of NOT_LOADED) {
      let path: string;
      try {
        path = fromHap.resolve(id);
      } catch {
        continue; // not installed: hap-nodejs would fail on it itself
      }
      if (require.cache[path] !== undefined) continue;
      const stub = new Module(path);
      stub.filename = path;
      stub.loaded = true;
      stub.exports = id === 'source-map-support/register' ? {} : absent(id);
      require.cache[path] = stub;
    }
  }
  loaded = optionalsByType(require('hap-nodejs') as typeof HAP);
  return loaded;
}

/**
 * hap-nodejs's services construct an instance of every optional characteristic of their type when built (8 for
 * Accessory Information, 8 for a Lightbulb: Service.addOptionalCharacteristic), only so that a later
 * getCharacteristic(Type) finds the type allowed, which it checks by UUID. Recording the type itself (its constructor
 * carries the UUID) builds none: with 100 accessories over a thousand characteristics fewer, and some 2,500 fewer
 * calls of node's assert.ok from their constructors, one of the functions whose calls at start made V8 optimise it
 * (docs/performance.md, "HomeKit bridge"). Nothing else reads the list but
 * Service.serialize, Homebridge's accessory cache, which hearth does not use (the bridge empties it once an accessory
 * is built).
 */
function optionalsByType(hap: typeof HAP): typeof HAP {
  const proto = hap.Service.prototype as unknown as { addOptionalCharacteristic: typeof addOptionalType };
  proto.addOptionalCharacteristic = addOptionalType;
  return hap;
}

/** Service.addOptionalCharacteristic as optionalsByType has it: the type (or instance) as given, nothing built. */
function addOptionalType(this: { optionalCharacteristics: { readonly UUID: string }[] }, characteristic: { readonly UUID: string }): void {
  this.optionalCharacteristics.push(characteristic);
}
