// The shipped entry point: tsc's output (a build's src/) bundled by esbuild into its hearth/, which dist/hearth/
// leads to (scripts/build.mjs runs both, scripts/dist-builds.mjs says where they go). The CLI is one CommonJS
// script, hearth.cjs: Node 20 compiles ES modules one file at a time and with no way to give V8 a code cache, and a
// start of the hub is mostly V8 compiling its code for the first time. cli.js (src/cli/launch.ts) compiles
// hearth.cjs with the bytecode the previous start of the same build kept (src/cli/code-cache.ts): the demo is ready
// in about two thirds of the time (bench/RESULTS.md). Every module still runs only when first imported, so
// `hearth token` does not start the server.
// Packages with native code or loaded only for configured hardware stay outside, loaded from
// node_modules as before. tsc still type-checks and emits dist/src/, which the bundle is made from, so
// source maps point at the TypeScript sources. Whitespace is dropped and identifiers are
// shortened (property names stay): V8 keeps the source text of every loaded module in memory, and the two
// keep about 0.9 MB of it out (1.9 MB of chunks became 1.4; RSS after the flood bench about 0.5 MB lower).
// esbuild's keepNames would keep function and class names, but it defines a `name` property on every function
// at load: the same bench read 1 MB more. Nothing here reads a function's name; errors name themselves
// (`this.name`), and the logger reports that name as the error's type (src/util/logger.ts).

import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

// mqtt.js goes into a file of its own (hearth/mqtt.cjs), loaded only with an `mqtt:` section: one whitespace-free file
// instead of some hundred modules from node_modules keeps about half a MB of source text and module records out of
// memory. The source imports it through a variable (so tsc never reads mqtt.js's declarations, which need DOM
// types); here that import becomes a require of that file (SOURCE_EDITS).
const MQTT_FILE = './mqtt.cjs';

// HomeKit: hap-nodejs with the packages it runs (fast-srp, tweetnacl, node-persist, debug, tslib) goes into
// hearth/hap.cjs and ciao, its mDNS advertiser, into hearth/ciao.cjs, which zeroconf's announcer loads too (one copy
// and one module state per process, as from node_modules). Loaded only with a `homekit:` section (ciao.cjs also with
// `zeroconf:`). Two minified files instead of 96 modules from node_modules keep about 0.9 MB of source text that V8
// holds, and 94 module records, out of memory (docs/performance.md, "HomeKit bridge"). As src/homekit/load-hap.ts
// does from node_modules, the packages hap-nodejs and ciao require at load time and hearth never runs are left out
// (homekitPackages says why); hap-nodejs reads its version from its package.json at run time (require.resolve), which
// the bundle has written in instead. Minified, classes lose their names: hap-nodejs reads them only in serialize()
// (Homebridge's accessory cache, unused here) and in a warning's text.
const HAP_FILE = './hap.cjs';
const CIAO_FILE = './ciao.cjs';
const HOMEKIT_ABSENT = /^(source-map-support\/register|bonjour-hap|@homebridge\/dbus-native)$/;
const PACKAGE_VERSION = /JSON\.parse\(\(0, node_fs_1\.readFileSync\)\(require\.resolve\("(?:\.\.\/)+package\.json"\), "utf-8"\)\)/g;

/** esbuild plugin for hap.cjs and ciao.cjs: the absent packages, ciao's own file, hap-nodejs's version. */
const homekitPackages = {
  name: 'homekit-packages',
  setup(b) {
    b.onResolve({ filter: HOMEKIT_ABSENT }, (args) => ({ path: args.path, namespace: 'hearth-absent' }));
    b.onLoad({ filter: /.*/, namespace: 'hearth-absent' }, (args) => ({
      // source-map-support/register: its process-wide Error.prepareStackTrace is not hap-nodejs's or ciao's to install.
      // The advertisers other than ciao: an exports object that explains itself if hap-nodejs ever reaches for one.
      contents:
        args.path === 'source-map-support/register'
          ? ''
          : `module.exports = new Proxy(Object.create(null), { get(_t, key) {
  if (key === '__esModule' || typeof key === 'symbol') return undefined;
  throw new Error(${JSON.stringify(`hearth loads hap-nodejs without ${args.path} (it advertises with ciao): `)} + String(key) + ' is not available');
} });`,
      loader: 'js',
    }));
    // ciao's package entry is ciao.cjs; hap-nodejs's one deep import into it (a stateless name formatter) is bundled.
    b.onResolve({ filter: /^@homebridge\/ciao$/ }, (args) =>
      /[\\/]hap-nodejs[\\/]/.test(args.importer) ? { path: CIAO_FILE, external: true } : undefined,
    );
    b.onLoad({ filter: /[\\/]hap-nodejs[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('package.json')) return undefined;
      const root = /^(.*[\\/]hap-nodejs)[\\/]dist[\\/]/.exec(args.path)?.[1] ?? '';
      const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
      const contents = text.replace(PACKAGE_VERSION, JSON.stringify({ version }));
      if (contents.includes('package.json'))
        throw new Error(`${args.path}: hap-nodejs reads its package.json in a way scripts/bundle.mjs does not replace`);
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** hap.cjs and ciao.cjs in `outdir`. */
async function bundleHomekit(outdir) {
  const require = createRequire(import.meta.url);
  const options = { ...COMMON, minifySyntax: true, format: 'cjs', charset: 'ascii', plugins: [homekitPackages] };
  await build({ ...options, entryPoints: [require.resolve('hap-nodejs')], outfile: join(outdir, HAP_FILE) });
  await build({ ...options, entryPoints: [require.resolve('@homebridge/ciao')], outfile: join(outdir, CIAO_FILE) });
}

// matter.js goes into a file of its own too (hearth/matter.cjs), loaded only with a `matter:` section: the modules
// src/matter/lib.ts imports (its MATTER_MODULES) and what they import, some 1,400 modules and 7 MB of source text
// from node_modules, become one minified file of 2.0 MB (docs/performance.md, "Matter bridge"), which runs them all
// when lib.ts first requires it (see matterEntries), with a standard data model of only the clusters it serves (see
// MODEL_DIR); the device types of LAZY_GROUPS go into files of their own, loaded when the bridge first needs one.
// matter.js reads function and class names (its log formats), hence keepNames (see namesAtLoad).
// lib.ts's one import of matter.js (matterModule) becomes a lookup in that file (SOURCE_EDITS).
const MATTER_FILE = './matter.cjs';

// Changes to matter.js's own code in hearth/matter.cjs, each for memory that grows with the bridged endpoints. The build
// fails when matter.js no longer has the text a change replaces.
const DATASOURCE = 'node/dist/esm/behavior/state/managed/Datasource.js';
const CLUSTER_BEHAVIOR_TYPE = 'node/dist/esm/behavior/cluster/ClusterBehaviorType.js';
const SERVER_BEHAVIOR_BACKING = 'node/dist/esm/behavior/internal/ServerBehaviorBacking.js';
const GENERATED_CLASS = 'general/dist/esm/util/GeneratedClass.js';
const PROTOCOL_SERVICE = 'node/dist/esm/node/integration/ProtocolService.js';
const BEHAVIORS = 'node/dist/esm/endpoint/properties/Behaviors.js';
export const MATTER_PATCHES = [
  {
    // A behaviour's datasource emits its attributes' $Changing and $Changed events through the behaviour's event
    // proxies, which matter.js makes on first access: at an endpoint's first commit, one for every event of every
    // cluster (about 115 an endpoint, each a proxy object, two bound functions, a getter and an observer set). The
    // datasource only asks `isObserved` and calls `emit`, which a proxy forwards to the endpoint's event itself, and
    // observers added through a proxy still count there: so it is given the endpoint's events directly.
    file: 'node/dist/esm/behavior/internal/BehaviorBacking.js',
    from: '      events: this.events,\n',
    to: '      events: this.#endpoint.eventsOf(this.#type),\n',
  },
  // Every instance of a cluster's Events (one per behaviour of each endpoint) registered the names of all its events
  // (two for each attribute, about 100 a cluster) as properties of its own `events`, each undefined until made:
  // an object in dictionary mode, some 3 KB, for each behaviour of each endpoint. The names now sit in one object
  // per Events class, the prototype of each instance's `events`, which holds only the events made: `name in events`
  // (hasEvent, getEvent) sees both, as before.
  {
    file: CLUSTER_BEHAVIOR_TYPE,
    from: '    initialize() {\n      for (const name of eventNames) {\n        this.addEvent(name);\n      }\n    }\n',
    to: '    initialize() {\n      this.events = declaredEvents(this.events, eventNames);\n    }\n',
  },
  {
    file: CLUSTER_BEHAVIOR_TYPE,
    from: 'export {\n  ClusterBehaviorType\n};\n',
    // The names a class's base registered (its base's initialize ran first) and its own, once per class.
    to: `const declaredNames = new WeakMap();
function declaredEvents(made, eventNames) {
  let names = declaredNames.get(eventNames);
  if (names === void 0) {
    names = Object.create(null);
    for (const name in made) names[name] = void 0;
    for (const name of eventNames) names[name] = void 0;
    declaredNames.set(eventNames, names);
  }
  const events = Object.create(names);
  for (const name in made) if (Object.hasOwn(made, name) && made[name] !== void 0) events[name] = made[name];
  return events;
}
export {
  ClusterBehaviorType
};
`,
  },
  // Each behaviour of each endpoint kept the names of its supported attributes, commands and events in three Sets of
  // its own (ValidatedElements', made per behaviour as it starts), the same for every behaviour of a type with the same
  // state: about 0.4 MB with 100 endpoints. Read only once made (iterated, `has`, `size`): equal Sets are now shared.
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: '      attributes: validation.attributes,\n      commands: validation.commands,\n      events: validation.events\n',
    to: '      attributes: sharedNames(validation.attributes),\n      commands: sharedNames(validation.commands),\n      events: sharedNames(validation.events)\n',
  },
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: 'export {\n  FeatureMismatchError,\n  ServerBehaviorBacking\n};\n',
    // One Set for each list of names; there are a few dozen (behaviour types and their features).
    to: `const namesByList = new Map();
function sharedNames(names) {
  const key = [...names].join(",");
  const shared = namesByList.get(key);
  if (shared !== void 0) return shared;
  namesByList.set(key, names);
  return names;
}
export {
  FeatureMismatchError,
  ServerBehaviorBacking
};
`,
  },
  // A behaviour's datasource (one for each behaviour of each endpoint) asked its type's supervisor for the names of its
  // persistent attributes, which made a new Set each time; the datasource only asks it `has`. Made once a supervisor.
  {
    file: 'node/dist/esm/behavior/supervision/RootSupervisor.js',
    from: '  persistentKeys(primaryKey = "name") {\n    const persistent = /* @__PURE__ */ new Set();\n',
    to: '  persistentKeys(primaryKey = "name") {\n    this.persistentKeysByPrimaryKey ??= /* @__PURE__ */ new Map();\n    let persistent = this.persistentKeysByPrimaryKey.get(primaryKey);\n    if (persistent !== void 0) return persistent;\n    persistent = /* @__PURE__ */ new Set();\n    this.persistentKeysByPrimaryKey.set(primaryKey, persistent);\n',
  },
  // A cluster's Events make an attribute's $Changing and $Changed events on first access, and the datasource looks
  // them up at every commit only to ask whether anyone observes them: so every endpoint had an event object for each
  // of its attributes' two events (about 93 an endpoint, 1.4 MB of heap with 100 endpoints), nearly all never
  // observed. An event nobody has made has no observers: the datasource now asks only for the events already made
  // (existingEvent, below), and the events of changed attributes are no longer remembered while not made.
  {
    file: DATASOURCE,
    from: '        const event = events?.[`${name}$Changing`];\n',
    to: '        const event = existingEvent(events, `${name}$Changing`);\n',
  },
  {
    file: DATASOURCE,
    from: '      event = this.events[`${key}$Changed`];\n',
    to: '      event = existingEvent(this.events, `${key}$Changed`);\n',
  },
  {
    file: DATASOURCE,
    from: '        event = this.events[`${field.propertyName}$Changed`];\n',
    to: '        event = existingEvent(this.events, `${field.propertyName}$Changed`);\n',
  },
  {
    file: DATASOURCE,
    from: '    this.#changedEventIndex.set(key, event);\n',
    to: '    if (event !== void 0) this.#changedEventIndex.set(key, event);\n',
  },
  {
    file: DATASOURCE,
    from: 'export {\n  Datasource\n};\n',
    // A cluster's Events (an EventEmitter) registers the events its getters make on first access in `events`, made or
    // not (hasEvent(name)); an event defined otherwise (a class field) is read as before.
    to: 'function existingEvent(events, name) {\n  return events?.hasEvent?.(name) && !events.hasEvent(name, true) ? void 0 : events?.[name];\n}\nexport {\n  Datasource\n};\n',
  },
  {
    // Every message sent builds its debug-log diagnostic (Message.diagnosticsOf: a few dictionaries, flag strings and
    // hex) before the logger looks at its level: about 0.1 ms of the hub's CPU and more garbage per Matter report
    // (a CPU profile of bench/matter.ts), where the hub logs matter.js at warnings. It is now built only when a log
    // destination takes this facility's debug messages, by the test Logger's #log applies (DEBUG is 0; a message
    // below the destination's level, or its level for the facility, is skipped).
    file: 'protocol/dist/esm/protocol/MessageChannel.js',
    from: '    logger.debug("Message", Mark.OUTBOUND, Message.diagnosticsOf(exchange ?? this.session, message, logContext));\n',
    to:
      '    for (const name in Logger.destinations) {\n' +
      '      const dest = Logger.destinations[name];\n' +
      '      if ((dest.facilityLevels?.MessageChannel ?? dest.level) > 0) continue;\n' +
      '      logger.debug("Message", Mark.OUTBOUND, Message.diagnosticsOf(exchange ?? this.session, message, logContext));\n' +
      '      break;\n' +
      '    }\n',
  },
  // mfixed: the memory matter.js takes as it loads, whatever the number of endpoints (docs/performance.md, "Matter
  // bridge", the fixed part). Each of the data model's child lists (some 3,700 as the bundle loads, one for each model
  // object its behaviours use) made its proxy a handler of its own, three closures over the list: the list is now its
  // proxy's handler, with the three traps as methods (it has no other member a proxy would take for a trap).
  {
    file: 'model/dist/esm/models/Children.js',
    from:
      '    const impl = this;\n    this.#proxy = new Proxy(this.#children, {\n      get(target, name, receiver) {\n' +
      '        return impl.#proxyGet(target, name, receiver);\n      },\n      set(_target, name, value, receiver) {\n' +
      '        return impl.#proxySet(name, value, receiver);\n      },\n      deleteProperty(_target, p) {\n' +
      '        return impl.#proxyDeleteProperty(p);\n      }\n    });\n',
    to: '    this.#proxy = new Proxy(this.#children, this);\n',
  },
  {
    file: 'model/dist/esm/models/Children.js',
    from: '  #proxyGet(_target, name, receiver) {\n',
    to:
      '  get(target, name, receiver) {\n    return this.#proxyGet(target, name, receiver);\n  }\n' +
      '  set(_target, name, value, receiver) {\n    return this.#proxySet(name, value, receiver);\n  }\n' +
      '  deleteProperty(_target, p) {\n    return this.#proxyDeleteProperty(p);\n  }\n' +
      '  #proxyGet(_target, name, receiver) {\n',
  },
  // matter.js's colour temperature to x/y table (1,901 objects of two numbers in an object of 1,901 elements,
  // 0.2 MB) was made as the bundle loads; it is now made when a colour light first converts a temperature.
  {
    file: 'node/dist/esm/behaviors/color-control/kelvinToXy.js',
    from: 'let lookupTableExpanded = false;\nconst lookupTable = {\n',
    to: 'let lookupTableExpanded = false;\nlet lookupTable;\nconst lookupTableOf = () => ({\n',
  },
  {
    file: 'node/dist/esm/behaviors/color-control/kelvinToXy.js',
    from: '\n};\nfunction expandLookupTable() {\n',
    to: '\n});\nfunction expandLookupTable() {\n',
  },
  {
    file: 'node/dist/esm/behaviors/color-control/kelvinToXy.js',
    from: '  if (!lookupTableExpanded) {\n    expandLookupTable();\n',
    to: '  if (!lookupTableExpanded) {\n    lookupTable = lookupTableOf();\n    expandLookupTable();\n',
  },
  // A device type's module alters the behaviours it requires as it loads (`IdentifyServer.alter({ commands:
  // { triggerEffect: { optional: false } } })`), and each alteration made a behaviour class of its own with a copy of
  // its cluster's model, the same alteration of the same behaviour in each of the light and plug device types. An
  // alteration of only plain values is now made once for each behaviour, as matter.js already makes each feature
  // selection (`with`) once.
  {
    file: 'node/dist/esm/behavior/cluster/ClusterBehavior.js',
    from: '  static alter(alterations) {\n    const schema = ClusterModifier.applyRequirements(this.schema, alterations);\n    return this.for(this.cluster, schema);\n  }\n',
    to:
      '  static alter(alterations) {\n    const key = plainKey(alterations);\n' +
      '    let altered = key === void 0 ? void 0 : alteredTypes.get(this)?.get(key)?.deref();\n' +
      '    if (altered !== void 0) return altered;\n' +
      '    const schema = ClusterModifier.applyRequirements(this.schema, alterations);\n    altered = this.for(this.cluster, schema);\n' +
      '    if (key !== void 0) {\n      if (!alteredTypes.has(this)) alteredTypes.set(this, /* @__PURE__ */ new Map());\n' +
      '      alteredTypes.get(this).set(key, new WeakRef(altered));\n    }\n    return altered;\n  }\n',
  },
  {
    file: 'node/dist/esm/behavior/cluster/ClusterBehavior.js',
    from: 'export {\n  ClusterBehavior\n};\n',
    // A key for alterations of nothing but plain objects, strings, numbers, booleans and null; undefined for others.
    to: `const alteredTypes = /* @__PURE__ */ new WeakMap();
function plainKey(value) {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return void 0;
  const parts = [];
  for (const name of Object.keys(value).sort()) {
    const part = plainKey(value[name]);
    if (part === void 0) return void 0;
    parts.push(JSON.stringify(name) + ":" + part);
  }
  return "{" + parts.join(",") + "}";
}
export {
  ClusterBehavior
};
`,
  },
  // A scope of the data model (one for each cluster a behaviour uses, kept in a cache) indexed its members by
  // their identity (`n<tag>\u241C<name>\u241C`, a string of two bytes a character) to find which shadow others, and
  // kept that index as long as the scope, its closures sharing the function's context: some 4,000 entries and their
  // keys, of which only the shadowed ones are used later (in `shadows`). The index is let go once built.
  {
    file: 'model/dist/esm/logic/Scope.js',
    from: '  const canonicalIdentityLevels = {};\n',
    to: '  let canonicalIdentityLevels = {};\n',
  },
  {
    file: 'model/dist/esm/logic/Scope.js',
    from: '          shadows.set(model, canonical.models);\n        }\n      }\n    }\n  });\n',
    to: '          shadows.set(model, canonical.models);\n        }\n      }\n    }\n  });\n  canonicalIdentityLevels = void 0;\n',
  },
  // mlatency: what the hub allocates for each Matter report. bench/matter.ts, the hub's allocations sampled with the
  // collected objects: some 380 KB a change, a young collection every third change with the unit's 1 MB semi-space.
  // matter.js's DataWriter, which every TLV value and message header is written through, made a Uint8Array for each
  // number it wrote (and for one of two bytes or more a DataView, which moves the array's bytes off the heap) and
  // joined them at the end; the control byte of each TLV element went through a bitmap schema, an object literal on
  // the way in and an object with a defined property on the way out. The writer now writes into one array that
  // doubles as it fills (the whole class is replaced: the build fails if matter.js's differs); the control byte is a
  // shift and a mask, as the schema computes it.
  {
    file: 'general/dist/esm/util/DataWriter.js',
    // matter.js 0.17's class, whole.
    from: `class DataWriter {
  littleEndian;
  length = 0;
  chunks = new Array();
  constructor(endian) {
    this.littleEndian = endian === Endian.Little;
  }
  writeUInt8(value) {
    this.chunks.push(new Uint8Array([toNumber(value)]));
    this.length += 1;
  }
  writeUInt16(value) {
    const chunk = new Uint8Array(2);
    new DataView(chunk.buffer, 0, 2).setUint16(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 2;
  }
  writeUInt32(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setUint32(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeUInt64(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setBigUint64(0, BigInt(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeInt8(value) {
    const chunk = new Uint8Array(1);
    new DataView(chunk.buffer, 0, 1).setInt8(0, toNumber(value));
    this.chunks.push(chunk);
    this.length += 1;
  }
  writeInt16(value) {
    const chunk = new Uint8Array(2);
    new DataView(chunk.buffer, 0, 2).setInt16(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 2;
  }
  writeInt32(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setInt32(0, toNumber(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeInt64(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setBigInt64(0, BigInt(value), this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeFloat(value) {
    const chunk = new Uint8Array(4);
    new DataView(chunk.buffer, 0, 4).setFloat32(0, value, this.littleEndian);
    this.chunks.push(chunk);
    this.length += 4;
  }
  writeDouble(value) {
    const chunk = new Uint8Array(8);
    new DataView(chunk.buffer, 0, 8).setFloat64(0, value, this.littleEndian);
    this.chunks.push(chunk);
    this.length += 8;
  }
  writeByteArray(value) {
    this.chunks.push(Bytes.of(value));
    this.length += value.byteLength;
  }
  toByteArray() {
    if (this.chunks.length === 0) return new Uint8Array(0);
    if (this.chunks.length === 1) return this.chunks[0];
    const result = new Uint8Array(this.length);
    let offset = 0;
    this.chunks.forEach((chunk) => {
      result.set(chunk, offset);
      offset += chunk.byteLength;
    });
    this.chunks.length = 0;
    this.chunks.push(result);
    return result;
  }
}
`,
    to: `const scratch = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratch.buffer);
class DataWriter {
  littleEndian;
  length = 0;
  #bytes = new Uint8Array(32);
  constructor(endian) {
    this.littleEndian = endian === Endian.Little;
  }
  // Where the next size bytes go, the array grown first: read this.#bytes only after calling it.
  #reserve(size) {
    const at = this.length;
    const need = at + size;
    if (need > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.#bytes.length * 2));
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.length = need;
    return at;
  }
  // A typed array's conversions are modular: signed and unsigned values of one size share their bytes.
  #integer(value, size) {
    const v = toNumber(value) >>> 0;
    const at = this.#reserve(size);
    const bytes = this.#bytes;
    for (let i = 0; i < size; i++) bytes[this.littleEndian ? at + i : at + size - 1 - i] = v >>> (8 * i);
  }
  #fromScratch(size) {
    const at = this.#reserve(size);
    for (let i = 0; i < size; i++) this.#bytes[at + i] = scratchBytes[i];
  }
  writeUInt8(value) {
    const at = this.#reserve(1);
    this.#bytes[at] = toNumber(value);
  }
  writeUInt16(value) {
    this.#integer(value, 2);
  }
  writeUInt32(value) {
    this.#integer(value, 4);
  }
  writeUInt64(value) {
    scratch.setBigUint64(0, BigInt(value), this.littleEndian);
    this.#fromScratch(8);
  }
  writeInt8(value) {
    const at = this.#reserve(1);
    this.#bytes[at] = toNumber(value);
  }
  writeInt16(value) {
    this.#integer(value, 2);
  }
  writeInt32(value) {
    this.#integer(value, 4);
  }
  writeInt64(value) {
    scratch.setBigInt64(0, BigInt(value), this.littleEndian);
    this.#fromScratch(8);
  }
  writeFloat(value) {
    scratch.setFloat32(0, value, this.littleEndian);
    this.#fromScratch(4);
  }
  writeDouble(value) {
    scratch.setFloat64(0, value, this.littleEndian);
    this.#fromScratch(8);
  }
  writeByteArray(value) {
    const bytes = Bytes.of(value);
    const at = this.#reserve(bytes.byteLength);
    this.#bytes.set(bytes, at);
  }
  toByteArray() {
    return this.#bytes.slice(0, this.length);
  }
}
`,
  },
  ...[
    [0, 'Anonymous'],
    [1, 'ContextSpecific'],
    [2, 'CommonProfile16'],
    [3, 'CommonProfile32'],
    [6, 'FullyQualified48'],
    [7, 'FullyQualified64'],
  ].map(([control, name]) => ({
    file: 'types/dist/esm/tlv/TlvCodec.js',
    from: `writer.writeUInt8(ControlByteSchema.encode({ tagControl: ${control} /* ${name} */, typeLength }));`,
    to: `writer.writeUInt8(${control} /* ${name} */ << 5 | typeLength);`,
  })),
  {
    file: 'types/dist/esm/tlv/TlvCodec.js',
    from: '    const { tagControl, typeLength } = ControlByteSchema.decode(reader.readUInt8());\n',
    to: '    const controlByte = reader.readUInt8();\n    const tagControl = controlByte >> 5;\n    const typeLength = controlByte & 31;\n',
  },
  // mlatency: a subscription's report after a change looked at every endpoint of the node for a controller that
  // subscribed to all of them (Apple Home, Google Home and matter.js's controller do), made a generator for each to
  // find it had changed nothing, and read the changed one: some 17 KB of the hub's allocation per report with 100
  // bridged endpoints, growing with each. The wildcard read now passes over an endpoint with nothing to report.
  {
    file: 'protocol/dist/esm/action/server/AttributeReadResponse.js',
    from: '        for (const endpoint2 of this.node) {\n          yield* this.readEndpointForWildcard(endpoint2, path);\n',
    to: '        for (const endpoint2 of this.node) {\n          if (this.skipsEndpoint?.(endpoint2)) continue;\n          yield* this.readEndpointForWildcard(endpoint2, path);\n',
  },
  {
    file: 'protocol/dist/esm/action/server/AttributeSubscriptionResponse.js',
    // What its readEndpointForWildcard returns at once for (it reads nothing else of the endpoint).
    from: '  *readEndpointForWildcard(endpoint, path) {\n    this.#currentEndpointDirty = this.#dirty[endpoint.id];\n',
    to: '  skipsEndpoint(endpoint) {\n    return this.#dirty[endpoint.id] === void 0;\n  }\n  *readEndpointForWildcard(endpoint, path) {\n    this.#currentEndpointDirty = this.#dirty[endpoint.id];\n',
  },
  // mendpoint:
  // A class matter.js generates (GeneratedClass: a behaviour's State and Events, the subclasses its features and
  // defaults make) is a plain function that constructs its base with Reflect.construct(base, args, newTarget), and a
  // generated base its own base in turn, with the same newTarget. V8 caches the initial map it derives for a newTarget
  // only when newTarget is a class that extends another (and for one allocating constructor at a time); for a plain
  // function it makes a new root map each time, so every instance of a behaviour's State and Events (one of each per
  // behaviour of each endpoint) grew its own chain of hidden classes, one for each property it was given: 24 maps and
  // a descriptor array for a level control's state, some 100 maps an endpoint. Two changes: a generated base runs its
  // construction (its beforeSuper, its base's, its mixins) on the object at hand, as its own constructor would have on
  // the object Reflect.construct made; a base that is not generated is constructed with, as newTarget, a class that
  // extends it, one for each base and newTarget, whose prototype and statics inherit newTarget's: the object's
  // prototype is that class's (one more link to newTarget's prototype, with `constructor` newTarget), so the base's
  // constructor and everyone after see the same `constructor`, methods and statics. (Setting newTarget's prototype
  // afterwards would undo it: in Node 20's V8 a map made by Object.setPrototypeOf caches no further transitions.)
  {
    file: GENERATED_CLASS,
    from: 'function GeneratedClass(options) {\n',
    to: 'const generatedConstructs = /* @__PURE__ */ new WeakMap();\nfunction GeneratedClass(options) {\n',
  },
  {
    file: GENERATED_CLASS,
    from: '  let construct;\n  if (base) {\n    construct = function(self, args) {\n',
    to: '  let construct;\n  const baseConstruct = base === void 0 ? void 0 : generatedConstructs.get(base);\n  if (baseConstruct !== void 0) {\n    construct = baseConstruct;\n  } else if (base) {\n    construct = function(self, args) {\n',
  },
  {
    file: GENERATED_CLASS,
    from: '  return klass;\n}\nfunction configureClass(',
    to: '  generatedConstructs.set(klass, beforeSuper ? (self, args) => construct(self, beforeSuper(...args)) : construct);\n  return klass;\n}\nfunction configureClass(',
  },
  {
    file: GENERATED_CLASS,
    from: '    construct = function(self, args) {\n      return reflectConstruct(base, args, self.constructor);\n',
    to: '    construct = function(self, args) {\n      return constructFrom(base, args, self.constructor);\n',
  },
  {
    file: GENERATED_CLASS,
    from: 'export {\n  GeneratedClass\n};\n',
    to: `const derivedTargets = /* @__PURE__ */ new WeakMap();
function constructFrom(base, args, newTarget) {
  if (typeof newTarget !== "function" || reflectConstruct !== Reflect.construct) {
    return reflectConstruct(base, args, newTarget);
  }
  let targets = derivedTargets.get(base);
  if (targets === void 0) {
    targets = /* @__PURE__ */ new WeakMap();
    derivedTargets.set(base, targets);
  }
  let target = targets.get(newTarget);
  if (target === void 0) {
    target = class extends base {
    };
    Object.setPrototypeOf(target, newTarget);
    Object.setPrototypeOf(target.prototype, newTarget.prototype);
    Object.defineProperty(target.prototype, "constructor", { value: newTarget, writable: true, configurable: true });
    Object.defineProperty(target, "name", { value: newTarget.name, configurable: true });
    targets.set(newTarget, target);
  }
  return Reflect.construct(base, args, target);
}
export {
  GeneratedClass
};
`,
  },
  // A node's protocol view of each cluster of each endpoint (ClusterState) made, as it was made, a function for each of
  // the cluster's commands (with a context, and the command's request and response models): about 1.3 kB for each
  // behaviour of each endpoint, for commands a controller may never send. Made now when the cluster's first command
  // comes (`commands` is read only to invoke one).
  {
    file: PROTOCOL_SERVICE,
    from:
      '  commands = {};\n  skipCommandValidation;\n  constructor(type, backing) {\n    this.type = type;\n    this.#datasource = backing.datasource;\n    this.#endpointId = backing.endpoint.number;\n    for (const cmd of type.commands) {\n      const commandModels = this.#commandModels(backing, cmd);\n      this.commands[cmd.id] = (args, session) => invokeCommand(backing, cmd, args, session, commandModels);\n    }\n',
    to:
      '  #backing;\n  #commands;\n  skipCommandValidation;\n  constructor(type, backing) {\n    this.type = type;\n    this.#datasource = backing.datasource;\n    this.#endpointId = backing.endpoint.number;\n    this.#backing = backing;\n',
  },
  {
    file: PROTOCOL_SERVICE,
    from: '  #commandModels(backing, cmd) {\n',
    to:
      '  get commands() {\n    if (this.#commands === void 0) {\n      const backing = this.#backing;\n      const commands = {};\n      for (const cmd of this.type.commands) {\n        const commandModels = this.#commandModels(backing, cmd);\n        commands[cmd.id] = (args, session) => invokeCommand(backing, cmd, args, session, commandModels);\n      }\n      this.#commands = commands;\n    }\n    return this.#commands;\n  }\n  #commandModels(backing, cmd) {\n',
  },
  // A datasource (one for each behaviour of each endpoint) kept the Map and Sets it made for a transaction's references,
  // an interaction it observed and the change events it looked up, once they were empty again, or when it made one
  // only to find nothing to put in it: some 450 bytes a behaviour, nearly all empty. They now go when empty, and the
  // change events' Map is made for the first event. (The change events' line is the one the patch above wrote.)
  {
    file: DATASOURCE,
    from: '    if (this.#changedEventIndex === void 0) {\n      this.#changedEventIndex = /* @__PURE__ */ new Map();\n    } else if (this.#changedEventIndex.has(key)) {\n',
    to: '    if (this.#changedEventIndex?.has(key)) {\n',
  },
  {
    file: DATASOURCE,
    from: '    if (event !== void 0) this.#changedEventIndex.set(key, event);\n',
    to: '    if (event !== void 0) (this.#changedEventIndex ??= /* @__PURE__ */ new Map()).set(key, event);\n',
  },
  {
    file: DATASOURCE,
    from: '      this.observedInteractions?.delete(session.interactionComplete);\n',
    to: '      this.observedInteractions?.delete(session.interactionComplete);\n      if (this.observedInteractions?.size === 0) {\n        this.observedInteractions = void 0;\n      }\n',
  },
  {
    file: DATASOURCE,
    from: '        this.#internals.sessions?.delete(this.#session);\n',
    to: '        this.#internals.sessions?.delete(this.#session);\n        if (this.#internals.sessions?.size === 0) {\n          this.#internals.sessions = void 0;\n        }\n',
  },
  // An endpoint's `state` and `events` had, for each behaviour, getters that were closures of their own (over the
  // endpoint's Behaviors and the type): V8 gives an object whose accessor differs from the one its hidden class's
  // transition has a dictionary of its own instead (Map::Normalize), so every endpoint's `state` and `events` were
  // dictionaries, beside the closures and their contexts (some 3 kB an endpoint). The getter is now one for each
  // behaviour id, shared by every endpoint's `state` and `events` (both start as `{}`: a second getter for the same name
  // would make the other a dictionary), which finds the endpoint's Behaviors from the object it is read on, and the type
  // the behaviour was added with (as the closure had it).
  {
    file: BEHAVIORS,
    from: 'const logger = Logger.get("Behaviors");\n',
    to: `const logger = Logger.get("Behaviors");
const stateAugmentedBy = /* @__PURE__ */ new WeakMap();
const eventsAugmentedBy = /* @__PURE__ */ new WeakMap();
const AUGMENTED_STATE = Symbol("augmentedState");
const AUGMENTED_EVENTS = Symbol("augmentedEvents");
const accessorsById = /* @__PURE__ */ new Map();
function sharedAccessor(id) {
  let accessor = accessorsById.get(id);
  if (accessor === void 0) {
    accessor = {
      get() {
        const behaviors = stateAugmentedBy.get(this);
        if (behaviors !== void 0) {
          return behaviors[AUGMENTED_STATE](id);
        }
        return eventsAugmentedBy.get(this)?.[AUGMENTED_EVENTS](id);
      }
    }.get;
    accessorsById.set(id, accessor);
  }
  return accessor;
}
`,
  },
  {
    file: BEHAVIORS,
    from: '  #detachedObservers;\n',
    to: '  #detachedObservers;\n  #augmented = {};\n',
  },
  {
    file: BEHAVIORS,
    from:
      '    const { id } = type;\n    const get = () => {\n      const status = this.#endpoint.construction.status;\n      if (status === Lifecycle.Status.Destroying || status === Lifecycle.Status.Destroyed) {\n        return void 0;\n      }\n      return this.#backingFor(type).stateView;\n    };\n',
    to:
      '    const { id } = type;\n    this.#augmented[id] = type;\n    stateAugmentedBy.set(this.#endpoint.state, this);\n    eventsAugmentedBy.set(this.#endpoint.events, this);\n    const get = sharedAccessor(id);\n',
  },
  {
    file: BEHAVIORS,
    from:
      '    Object.defineProperty(this.#endpoint.events, id, {\n      get: () => {\n        let events = this.#events[id];\n        if (!events) {\n          events = this.#events[id] = this.#createEventsFor(type);\n        }\n        return events;\n      },\n      enumerable: true,\n      configurable: true\n    });\n  }\n',
    to:
      '    Object.defineProperty(this.#endpoint.events, id, { get, enumerable: true, configurable: true });\n  }\n  [AUGMENTED_STATE](id) {\n    const status = this.#endpoint.construction.status;\n    if (status === Lifecycle.Status.Destroying || status === Lifecycle.Status.Destroyed) {\n      return void 0;\n    }\n    return this.#backingFor(this.#augmented[id]).stateView;\n  }\n  [AUGMENTED_EVENTS](id) {\n    let events = this.#events[id];\n    if (!events) {\n      events = this.#events[id] = this.#createEventsFor(this.#augmented[id]);\n    }\n    return events;\n  }\n',
  },
  // Every behaviour's Events has `interactionBegin`, `interactionEnd` and `stateChanged`, each an observable made when
  // first read; the datasource read them (at each write and interaction) only to ask whether anyone observes them, so
  // every behaviour of every endpoint had two or three of them (with an error handler each), never observed. It now
  // reads one only once made (an own property, or registered by the getter that made it).
  {
    file: DATASOURCE,
    from: '    if (this.events?.interactionEnd?.isObserved) {\n',
    to: '    if (madeEvent(this.events, "interactionEnd")?.isObserved) {\n',
  },
  {
    file: DATASOURCE,
    from: '      if (emitBegin && this.#internals.events?.interactionBegin?.isObserved) {\n',
    to: '      if (emitBegin && madeEvent(this.#internals.events, "interactionBegin")?.isObserved) {\n',
  },
  {
    file: DATASOURCE,
    from: '      if (this.#internals.events.stateChanged?.isObserved) {\n',
    to: '      if (madeEvent(this.#internals.events, "stateChanged")?.isObserved) {\n',
  },
  {
    file: DATASOURCE,
    from: 'function existingEvent(events, name) {\n',
    to: 'function madeEvent(events, name) {\n  if (typeof events?.hasEvent === "function" && !Object.hasOwn(events, name) && !events.hasEvent(name, true)) {\n    return void 0;\n  }\n  return events?.[name];\n}\nfunction existingEvent(events, name) {\n',
  },
  // Each endpoint made its own Agent class (Agent.for: a generated class with a getter for each behaviour) the first time
  // it was acted on, the same for every endpoint of a type: one now for each type name and set of supported behaviours
  // (by id and class; an endpoint's set is a copy of its type's once it adds one, as every endpoint adds its descriptor).
  {
    file: 'node/dist/esm/endpoint/Endpoint.js',
    from: '      this.#agentType = Agent.for(this.type, this.behaviors.supported);\n',
    to: '      this.#agentType = sharedAgentType(this.type, this.behaviors.supported);\n',
  },
  {
    file: 'node/dist/esm/endpoint/Endpoint.js',
    from: 'const logger = Logger.get("Endpoint");\nclass Endpoint {\n',
    to: `const logger = Logger.get("Endpoint");
const agentTypes = /* @__PURE__ */ new Map();
const behaviorNumbers = /* @__PURE__ */ new WeakMap();
let nextBehaviorNumber = 0;
function sharedAgentType(type, supported) {
  let key = type.name;
  for (const id in supported) {
    let number = behaviorNumbers.get(supported[id]);
    if (number === void 0) {
      number = nextBehaviorNumber++;
      behaviorNumbers.set(supported[id], number);
    }
    key += \`,\${id}:\${number}\`;
  }
  let agentType = agentTypes.get(key);
  if (agentType === void 0) {
    agentType = Agent.for(type, supported);
    agentTypes.set(key, agentType);
  }
  return agentType;
}
class Endpoint {
`,
  },
  // A behaviour's events proxy (ObservableProxy: about 7 an endpoint) gave the function it observes its target with a
  // getter of its own, a closure (`super.isObserved`): with a context, and as every proxy's function differed from the
  // one its hidden class's transition had, a dictionary for each. The getter is now one function, which finds the proxy
  // in a WeakMap and asks BasicObservable's `isObserved` of it, as `super.isObserved` did.
  {
    file: 'general/dist/esm/util/Observable.js',
    from: '    Object.defineProperty(this.#emitter, observant, {\n      get() {\n        return super.isObserved;\n      }\n    });\n',
    to: '    proxiedEmitters.set(this.#emitter, this);\n    Object.defineProperty(this.#emitter, observant, { get: proxiedIsObserved });\n',
  },
  {
    file: 'general/dist/esm/util/Observable.js',
    from: 'class ObservableProxy extends BasicObservable {\n',
    to: `const proxiedEmitters = /* @__PURE__ */ new WeakMap();
const basicIsObserved = Object.getOwnPropertyDescriptor(BasicObservable.prototype, "isObserved").get;
function proxiedIsObserved() {
  const proxy = proxiedEmitters.get(this);
  return proxy !== void 0 && basicIsObserved.call(proxy);
}
class ObservableProxy extends BasicObservable {
`,
  },
  // A behaviour's elements named its features in a FeatureSet of its own (a cluster model's `supportedFeatures` is made
  // anew at each read), the same for every behaviour of a type: shared now, one for each list of names, as the names
  // of its attributes, commands and events are above.
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: '      features: behavior.type.schema.supportedFeatures ?? /* @__PURE__ */ new Set(),\n',
    to: '      features: sharedFeatures(behavior.type.schema.supportedFeatures ?? /* @__PURE__ */ new Set()),\n',
  },
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: 'export {\n  FeatureMismatchError,\n  ServerBehaviorBacking\n};\n',
    to: `const featuresByList = /* @__PURE__ */ new Map();
function sharedFeatures(features) {
  const key = [...features].join(",");
  const shared = featuresByList.get(key);
  if (shared !== void 0 && shared.constructor === features.constructor) return shared;
  featuresByList.set(key, features);
  return features;
}
export {
  FeatureMismatchError,
  ServerBehaviorBacking
};
`,
  },
];
const matterPatches = () => ({
  name: 'matter-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@matter[\\/]/ }, async (args) => {
      const patches = MATTER_PATCHES.filter((p) => args.path.endsWith(join('@matter', p.file)));
      if (patches.length === 0) return undefined;
      let text = await readFile(args.path, 'utf8');
      for (const p of patches) {
        if (!text.includes(p.from)) throw new Error(`@matter/${p.file} no longer has ${JSON.stringify(p.from)}: see MATTER_PATCHES`);
        text = text.replace(p.from, p.to);
      }
      return { contents: text, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

// Matter's standard data model (`Matter` of @matter/model) is built as matter.js loads: a model object tree for every
// cluster (141), device type (92), datatype and semantic namespace of the specification, beside the element trees it
// is built from. The bridge serves some 50 clusters; matter.js imports each cluster it has a behaviour for (its
// @matter/types cluster is made from that cluster's model), and looks the rest up by id or name only to decode or name
// what a peer sends. So the bundle's model has the clusters and device types some bundled module imports by name,
// the clusters those are derived from or borrow a datatype of, and every element that is neither (datatypes, global
// attributes, semantic namespaces): a first build (without the model cut) finds the modules and their imports. A
// cluster missing here that a module needs fails the build (esbuild: no matching export), and so does a change in how
// matter.js lists the model (the checks below).
const MODEL_DIR = join('model', 'dist', 'esm', 'standard', 'elements');
const MODEL_KINDS = /^const (\w+) = new (\w+)\(definitions\.\1\);$/gm;

/** Names of the standard model's elements the bundled modules import, from the inputs of a first build. */
async function modelImports(inputs) {
  const names = new Set();
  const from = /import\s*\{([^}]*)\}\s*from\s*"(?:@matter\/model|[^"]*standard\/elements\/(?:models|definitions)\.js)"/g;
  for (const file of Object.keys(inputs)) {
    if (!file.includes('node_modules/@matter/')) continue;
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

/** The plugin that leaves out of the standard model the clusters and device types nothing imports (see MODEL_DIR). */
function standardModel(imported, dir) {
  const elements = modelElements(dir);
  const byName = new Map([...elements.values()].map((e) => [e.name, e]));
  const cut = (e) => e.kind === 'ClusterModel' || e.kind === 'DeviceTypeModel';
  const keep = new Set([...byName.values()].filter((e) => !cut(e) || imported.has(e.name)).map((e) => e.name));
  for (const name of keep) for (const other of byName.get(name).refers) if (byName.has(other) && !keep.has(other)) keep.add(other);
  // (A Set visits what is added while it is iterated: bases of bases are kept too.)
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
        if (!texts.has(args.importer)) texts.set(args.importer, args.namespace === 'file' ? await readFile(args.importer, 'utf8') : '');
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
async function bundleMatter(buildDir, outdir) {
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
  const first = await build({
    ...options,
    format: 'esm',
    entryPoints: [{ in: 'hearth-lazy:all', out: 'all' }, ...lazy.map((path, i) => ({ in: `hearth-lazy:${path}`, out: `lazy${i}` }))],
    outdir: join(outdir, 'matter-first'),
    plugins: [
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
      plugins: [coreImports(core, boundary), matterPatches(), model],
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

// keepNames gives a function its name by defining a `name` property on it (`__name(fn, "name")`, below), and V8 then
// keeps that function's properties in a dictionary of its own (260 bytes). A function or class expression without a
// name of its own is given one by the source instead, as a property of an object literal is (`({ name: () => 1 }).name`
// is "name"), which costs nothing: some 1,700 of esbuild's calls in the bundle, of which about 1,000 run as it loads.
// What is left to __name: function declarations and classes that refer to themselves by their own (minified) name.
// Read with TypeScript's parser (a dev dependency, as for tsc).
function namesInSource(text) {
  const helper = NAME_HELPER.exec(text)?.[1];
  if (helper === undefined) throw new Error("hearth/matter.cjs: esbuild's __name helper has changed: see namesInSource");
  const source = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const anonymous = (node) =>
    ts.isArrowFunction(node) || ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name === undefined);
  const isNameCall = (node) => ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === helper;
  const namesItself = (member) =>
    ts.isClassStaticBlockDeclaration(member) &&
    member.body.statements.some(
      (s) => ts.isExpressionStatement(s) && isNameCall(s.expression) && s.expression.arguments[0]?.kind === ts.SyntaxKind.ThisKeyword,
    );
  // [start, end, replacement]: the call `__name(expression, "name")`, or for a class, its static block `static{__name(this, "name")}`.
  const edits = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === helper && node.arguments.length === 2) {
      const [fn, name] = node.arguments;
      // (A class that names itself in a static block and is then named again keeps both calls: the last one wins.)
      if (ts.isStringLiteral(name) && anonymous(fn) && !(ts.isClassExpression(fn) && fn.members.some(namesItself)))
        edits.push({ node, fn, name: name.text });
      const block = node.parent?.parent?.parent;
      if (
        ts.isStringLiteral(name) &&
        fn.kind === ts.SyntaxKind.ThisKeyword &&
        block !== undefined &&
        ts.isClassStaticBlockDeclaration(block) &&
        block.body.statements.length === 1 &&
        ts.isClassExpression(block.parent) &&
        block.parent.name === undefined &&
        !isNameCall(block.parent.parent)
      )
        edits.push({ node: block.parent, fn: block.parent, name: name.text, drop: block });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Applied from the last in the text to the first, each over the text as the ones within it left it.
  edits.sort((a, b) => b.node.getStart(source) - a.node.getStart(source) || a.node.end - b.node.end);
  let out = text;
  const done = [];
  const shifted = (from, to) => done.reduce((sum, d) => (d.start >= from && d.end <= to ? sum + d.delta : sum), 0);
  for (const { node, fn, name, drop } of edits) {
    const start = node.getStart(source);
    const end = node.end + shifted(start, node.end);
    const fnStart = fn.getStart(source);
    let body = out.slice(fnStart, fn.end + shifted(fnStart, fn.end));
    if (drop !== undefined) {
      const at = drop.getStart(source) - fnStart + shifted(fnStart, drop.getStart(source));
      body = body.slice(0, at) + body.slice(at + drop.end - drop.getStart(source));
    }
    const key = JSON.stringify(name);
    const replacement = `({${key}:${body}})[${key}]`;
    out = out.slice(0, start) + replacement + out.slice(end);
    done.push({ start, end: node.end, delta: replacement.length - (end - start) });
  }
  return out;
}

// keepNames gives a function its name by defining a `name` property on it, which costs it a property store of its own
// and a hidden class: for the arrow functions matter.js makes per endpoint and per transaction (some 40 an endpoint)
// 1.5 MB with 100 endpoints. matter.js reads the names of its classes, functions and of functions made as a module
// loads (its log formats), never those of arrow functions made later: those are left as V8 names them. Done on
// esbuild's helper `__name`, with a count of the modules loading: the bundle's top level (its modules, which run as it
// loads) and the lazy module initialiser `__esm` (a module matter.js imports with import(), if any).
const NAME_HELPER = /var (\w+)=\((\w+),(\w+)\)=>(\w+)\(\2,"name",\{value:\3,configurable:(?:true|!0)\}\);/;
const ESM_HELPER =
  /var (\w+)=\((\w+),(\w+),(\w+)\)=>\(\)=>\{if\(\4\)throw \4\[0\];try\{return \2&&\(\3=\2\(\2=0\)\),\3\}catch\((\w+)\)\{throw \4=\[\5\],\5\}\};/;
function namesAtLoad(text) {
  const sourceMap = '\n//# sourceMappingURL=';
  if (!NAME_HELPER.test(text) || !text.includes(sourceMap))
    throw new Error("hearth/matter.cjs: esbuild's __name helper or its source map comment has changed: see namesAtLoad");
  // The bundle's modules run as it loads (the top level, until the source map comment), and those loaded later by
  // import() in esbuild's lazy initialiser, if any.
  const at = text.lastIndexOf(sourceMap);
  return `${text.slice(0, at)}\n__hearthLoading=0;${text.slice(at)}`
    .replace(
      NAME_HELPER,
      (_m, name, fn, value, define) =>
        `var __hearthLoading=1;var ${name}=(${fn},${value})=>__hearthLoading>0||${fn}.prototype!==void 0?${define}(${fn},"name",{value:${value},configurable:true}):${fn};`,
    )
    .replace(
      ESM_HELPER,
      (_m, name, init, result, error, caught) =>
        `var ${name}=(${init},${result},${error})=>()=>{if(${error})throw ${error}[0];__hearthLoading++;try{return ${init}&&(${result}=${init}(${init}=0)),${result}}catch(${caught}){throw ${error}=[${caught}],${caught}}finally{__hearthLoading--}};`,
    );
}

// Native addons, the optional hardware packages and Zigbee's (herdsman and the converters, some 40 MB that load their
// vendor files lazily and are patched by the tests' fake adapter), and the HomeKit and Matter packages (loaded only
// with their sections; test/cli/optional-packages.test.ts checks the demo loads none): resolved at run time, only
// when used.
const EXTERNAL = [
  'uWebSockets.js',
  'serialport',
  '@serialport/*',
  'onoff',
  'i2c-bus',
  'zigbee-herdsman',
  'zigbee-herdsman-converters',
  'hap-nodejs',
  '@homebridge/ciao',
  '@matter/*',
  'tweetnacl',
  'uqr',
];

// hearth.cjs runs as a vm.Script (for its code cache), where Node 20 has no loader for `import()`: a dynamic import of
// an outside package (all of them CommonJS) becomes a require, which the script's wrapper gives it. The specifier is
// a string of the list above, or one of the constants the sources import such packages through.
const DYNAMIC_IMPORT =
  /\bimport\((["'](?:uWebSockets\.js|serialport|@serialport\/[^"']+|onoff|i2c-bus|zigbee-herdsman(?:-converters)?(?:\/[^"']+)?|hap-nodejs|@homebridge\/ciao|@matter\/[^"']+|tweetnacl|uqr)["']|ONOFF|MATTER_[A-Z]+|UQR)\)/g;
const outsideImports = (buildDir) => ({
  name: 'outside-imports',
  setup(b) {
    const src = join(buildDir, 'src');
    const drivers = join(buildDir, 'drivers');
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(src) && !args.path.startsWith(drivers)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!DYNAMIC_IMPORT.test(text)) return undefined;
      DYNAMIC_IMPORT.lastIndex = 0;
      return {
        contents: text.replace(DYNAMIC_IMPORT, (_m, spec) => `Promise.resolve().then(() => require(${spec}))`),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
});

/**
 * What hearth.cjs's build changes in tsc's output: each source's import of a package that has a file of its own
 * beside hearth.cjs becomes a load of that file. The build fails when a source no longer has the text.
 */
const SOURCE_EDITS = [
  {
    file: join('mqtt', 'connection.js'),
    from: 'import(MQTT_PACKAGE)',
    to: `Promise.resolve().then(() => require(${JSON.stringify(MQTT_FILE)}))`,
  },
  { file: join('homekit', 'load-hap.js'), from: "const HAP_BUNDLE = '';", to: `const HAP_BUNDLE = ${JSON.stringify(HAP_FILE)};` },
  {
    file: join('matter', 'lib.js'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    from: 'import(`${MATTER_SCOPE}${path}`)',
    to: `Promise.resolve().then(() => require(${JSON.stringify(MATTER_FILE)}).load(path))`,
  },
];
/** Imports in the sources that stay outside hearth.cjs as the files of their own: the announcer's ciao is ciao.cjs. */
const OWN_FILES = new Map([
  [MQTT_FILE, MQTT_FILE],
  [MATTER_FILE, MATTER_FILE],
  ['@homebridge/ciao', CIAO_FILE],
]);

/** esbuild plugin for hearth.cjs: SOURCE_EDITS and OWN_FILES. */
const sourceEdits = (buildDir) => ({
  name: 'source-edits',
  setup(b) {
    const edits = new Map(SOURCE_EDITS.map((edit) => [join(buildDir, 'src', edit.file), edit]));
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const edit = edits.get(args.path);
      if (edit === undefined) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(edit.from)) throw new Error(`src/${edit.file} no longer has ${JSON.stringify(edit.from)}: see SOURCE_EDITS`);
      return { contents: text.replace(edit.from, edit.to), loader: 'js', resolveDir: dirname(args.path) };
    });
    const specifiers = [...OWN_FILES.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${specifiers.join('|')})$`) }, (args) => ({ path: OWN_FILES.get(args.path), external: true }));
  },
});

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  minifyWhitespace: true,
  minifyIdentifiers: true,
};

/**
 * Bundles `buildDir`/src/ (tsc's output) into `buildDir`/hearth/: the CLI as one CommonJS script (hearth.cjs), which
 * cli.js (src/cli/launch.ts) runs through V8's code cache; mqtt.js as mqtt.cjs; hap-nodejs and ciao as hap.cjs and
 * ciao.cjs; matter.js as matter.cjs.
 */
export async function bundle(buildDir) {
  const outdir = join(buildDir, 'hearth');
  await build({
    ...COMMON,
    entryPoints: [join(buildDir, 'src', 'cli.js')],
    outfile: join(outdir, 'hearth.cjs'),
    format: 'cjs',
    plugins: [sourceEdits(buildDir), outsideImports(buildDir)],
    external: EXTERNAL,
    // The sources are ES modules: import.meta.url is this file's URL, as it was each module's.
    define: { 'import.meta.url': '__hearthFileUrl' },
    banner: { js: "const __hearthFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  // The launcher is CommonJS too, marked so by hearth/package.json (the repository's says "type": "module"): Node runs
  // a CommonJS entry point without its ES module loader, whose start (some ten more of Node's own modules, and an
  // ES module view of each builtin imported, which reads every lazy export: node:fs's streams, node:crypto's
  // webcrypto) cost the demo's start about a tenth of its time (bench/RESULTS.md, Startup).
  await build({
    ...COMMON,
    entryPoints: [join(buildDir, 'src', 'cli', 'launch.js')],
    outfile: join(outdir, 'cli.js'),
    format: 'cjs',
    define: { 'import.meta.url': '__hearthFileUrl' },
    banner: { js: "const __hearthFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  await build({
    ...COMMON,
    entryPoints: [createRequire(import.meta.url).resolve('mqtt')],
    outfile: join(outdir, MQTT_FILE),
    format: 'cjs',
  });
  await bundleHomekit(outdir);
  await bundleMatter(buildDir, outdir);

  // V8 keeps every loaded module's source text, one byte a character only while all of it is Latin-1: a single
  // character beyond (a typographic quote in a tagged template, which esbuild cannot escape) stores the whole
  // chunk at two bytes a character, 250 KB more for the hub's. Such text is written as \u escapes instead. The hub's
  // script is plain ASCII: the launcher reads it as Latin-1, which is a copy of its bytes (decoding 1.4 MB of UTF-8
  // took a few milliseconds of every start), and the same text only while no byte is beyond ASCII.
  for (const name of readdirSync(outdir)) {
    if (!name.endsWith('.js') && !name.endsWith('.cjs')) continue;
    const text = readFileSync(join(outdir, name), 'utf8');
    const [beyond, what] = name === 'hearth.cjs' ? [/[\u0080-\uffff]/, 'ASCII'] : [/[\u0100-\uffff]/, 'Latin-1'];
    const at = text.search(beyond);
    if (at >= 0) {
      const line = text.slice(0, at).split('\n').length;
      throw new Error(
        `hearth/${name}:${line}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))} has a character beyond ${what}; write it as a \\u escape (or an HTML entity) in the source`,
      );
    }
  }
  // The bin link's target, run directly by `npx hearth`.
  chmodSync(join(outdir, 'cli.js'), 0o755);
}
