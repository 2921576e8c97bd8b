// Changes to matter.js's own code in hearth/matter.cjs for the memory it takes as it loads, whatever the number of
// endpoints (docs/performance.md, "Matter bridge", the fixed part). Part of MATTER_PATCHES (scripts/matter-patches.mjs):
// the build fails when matter.js no longer has the text a change replaces.

export const LOAD_PATCHES = [
  // Each of the data model's child lists (some 3,700 as the bundle loads, one for each model
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
  // matter.js's HTTP endpoint (for its remote API, which hearth does not serve) imported node's http and https as
  // the bundle loads, and its request class extends the global `Request`, whose first read loads undici, node's
  // fetch (with tls, http2, zlib and worker_threads): node modules the hub does not otherwise load (it serves HTTP
  // with uWebSockets.js), some 5 MB of RSS in a bare Node. They now load when the endpoint is first used.
  {
    file: 'nodejs/dist/esm/net/NodeJsHttpEndpoint.js',
    from:
      'import { createServer as createHttpServer, IncomingMessage } from "node:http";\n' +
      'import { createServer as createHttpsServer } from "node:https";\n',
    to:
      'const createHttpServer = (...args) => require("node:http").createServer(...args);\n' +
      'const createHttpsServer = (...args) => require("node:https").createServer(...args);\n' +
      'const IncomingMessage = { toWeb: (message) => require("node:http").IncomingMessage.toWeb(message) };\n',
  },
  {
    file: 'nodejs/dist/esm/net/NodeJsHttpEndpoint.js',
    from: 'class NodeJsHttpRequest extends Request {\n  constructor(message) {\n',
    to:
      'let NodeJsHttpRequestClass;\nfunction NodeJsHttpRequest(message) {\n' +
      '  NodeJsHttpRequestClass ??= class extends Request {\n  constructor(message) {\n',
  },
  {
    file: 'nodejs/dist/esm/net/NodeJsHttpEndpoint.js',
    from: '    super(url, init);\n  }\n}\nfunction respondError(',
    to: '    super(url, init);\n  }\n  };\n  return new NodeJsHttpRequestClass(message);\n}\nfunction respondError(',
  },
  // The storage drivers the default environment offers: hearth gives the bridge its own (src/matter/lib.ts), so
  // matter.js's write-ahead log, SQLite and flat-file drivers are never used; only the file drivers stay.
  {
    file: 'nodejs/dist/esm/environment/NodeJsEnvironment.js',
    from:
      '      service.registerDriver(MemoryStorageDriver);\n      service.registerDriver(WalStorageDriver);\n' +
      '      service.registerDriver(FileStorageDriver);\n      service.registerDriver({\n        id: "sqlite",\n' +
      '        async create(namespace) {\n          const { SqliteStorageDriver } = await import("#storage/sqlite/index.js");\n' +
      '          return SqliteStorageDriver.create(namespace);\n        }\n      });\n' +
      '      service.registerBlobDriver(FlatFileBlobStorageDriver);\n      service.registerBlobDriver(DirectoryBlobStorageDriver);\n' +
      '      service.registerBlobDriver(WalBlobStorageDriver);\n      service.registerBlobDriver({\n        id: "sqlite",\n' +
      '        async create(namespace) {\n          const { SqliteBlobStorageDriver } = await import("#storage/sqlite/index.js");\n' +
      '          return new SqliteBlobStorageDriver({ namespaceOrPath: namespace });\n        }\n      });\n',
    to:
      '      service.registerDriver(MemoryStorageDriver);\n      service.registerDriver(FileStorageDriver);\n' +
      '      service.registerBlobDriver(DirectoryBlobStorageDriver);\n',
  },
  // Level Control's server couples colour temperature to level, and imported Color Control's server only to find it
  // on its endpoint: Color Control (its server, conversions and cluster, some 110 KB of the bundle) came with every
  // bridge. It is found by its id now, so colour lights go into a file of their own (LAZY_GROUPS, `color`).
  {
    file: 'node/dist/esm/behaviors/level-control/LevelControlServer.js',
    from: 'import { ColorControlServer } from "#behaviors/color-control";\n',
    to: '',
  },
  {
    file: 'node/dist/esm/behaviors/level-control/LevelControlServer.js',
    from:
      '    if (this.features.lighting && options.coupleColorTempToLevel && this.agent.has(ColorControlServer)) {\n' +
      '      this.context.transaction.addParticipants({\n        preCommit: () => {\n' +
      '          const colorControl = this.agent.get(ColorControlServer);\n',
    to:
      '    if (this.features.lighting && options.coupleColorTempToLevel && this.agent.has("colorControl")) {\n' +
      '      this.context.transaction.addParticipants({\n        preCommit: () => {\n' +
      '          const colorControl = this.agent.get(this.endpoint.behaviors.supported.colorControl);\n',
  },
];
