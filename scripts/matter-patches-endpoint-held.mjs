// Changes to matter.js's own code in hearth/matter.cjs for what each bridged endpoint still held after the changes of
// scripts/matter-patches-endpoint.mjs (docs/performance.md, "Matter bridge": the second round), which appends these
// after its own: some of them change text those wrote. The build fails when matter.js no longer has the text a change
// replaces.

const DATASOURCE = 'node/dist/esm/behavior/state/managed/Datasource.js';
const SERVER_BEHAVIOR_BACKING = 'node/dist/esm/behavior/internal/ServerBehaviorBacking.js';
const PROTOCOL_SERVICE = 'node/dist/esm/node/integration/ProtocolService.js';
const OBSERVABLE = 'general/dist/esm/util/Observable.js';
const ENDPOINT = 'node/dist/esm/endpoint/Endpoint.js';
const CONSTRUCTION = 'general/dist/esm/util/Construction.js';
const DESCRIPTOR_SERVER = 'node/dist/esm/behaviors/descriptor/DescriptorServer.js';
const REACTORS = 'node/dist/esm/behavior/internal/Reactors.js';

export const HELD_PATCHES = [
  // An observable (BasicObservable: an endpoint's lifecycle and online events, the events proxies and reactors' events
  // of its behaviours, some 20 an endpoint) kept its observers in a Set of its own once observed, nearly always of
  // one: a Set and its table, some 150 bytes each. One observer is now held as itself, a Set made for a second, and
  // let go when emptied again. (An observer is a function; `observers` below is that function or a Set.)
  {
    file: OBSERVABLE,
    from: '  get isObserved() {\n    if (this.#observers) {\n      for (const observer of this.#observers) {\n',
    to: '  get isObserved() {\n    if (typeof this.#observers === "function") {\n      if (this.#observers[observant] !== false) {\n        return true;\n      }\n    } else if (this.#observers) {\n      for (const observer of this.#observers) {\n',
  },
  {
    file: OBSERVABLE,
    from: '    return !!this.#observers?.has(observer);\n',
    to: '    return typeof this.#observers === "function" ? this.#observers === observer : !!this.#observers?.has(observer);\n',
  },
  {
    file: OBSERVABLE,
    from: '    const observers = [...this.#observers];\n',
    to: '    const observers = typeof this.#observers === "function" ? [this.#observers] : [...this.#observers];\n',
  },
  {
    file: OBSERVABLE,
    from: '        this.#once.delete(observer);\n        this.#observers?.delete(observer);\n',
    to: '        this.#once.delete(observer);\n        this.#removeObserver(observer);\n',
  },
  {
    file: OBSERVABLE,
    from: '  on(observer) {\n    if (!this.#observers) {\n      this.#observers = /* @__PURE__ */ new Set();\n    }\n    this.#observers.add(observer);\n  }\n',
    to: `  on(observer) {
    const observers = this.#observers;
    if (observers === void 0) {
      this.#observers = observer;
    } else if (typeof observers === "function") {
      if (observers !== observer) {
        this.#observers = /* @__PURE__ */ new Set([observers, observer]);
      }
    } else {
      observers.add(observer);
    }
  }
  #removeObserver(observer) {
    const observers = this.#observers;
    if (observers === observer) {
      this.#observers = void 0;
    } else if (typeof observers === "object") {
      observers.delete(observer);
      if (observers.size === 0) {
        this.#observers = void 0;
      }
    }
  }
`,
  },
  {
    file: OBSERVABLE,
    from: '  off(observer) {\n    this.#observers?.delete(observer);\n',
    to: '  off(observer) {\n    this.#removeObserver(observer);\n',
  },
  {
    file: OBSERVABLE,
    from: '    if (!this.#observers?.size) {\n      return;\n    }\n    const detached = {\n      observers: this.#observers,\n',
    to: '    const observers = typeof this.#observers === "function" ? /* @__PURE__ */ new Set([this.#observers]) : this.#observers;\n    if (!observers?.size) {\n      return;\n    }\n    const detached = {\n      observers,\n',
  },
  // An endpoint's data model path (Endpoint.path: its parent's path and its own identity) was made anew at each read,
  // the parent's too, and each behaviour's datasource keeps the one it read (a path of the behaviour below it), as does
  // each list and reference: some 20 path objects an endpoint, a chain to the root each. The path is kept now, and made
  // again only when the parent's path, the identity or the type's name changed. (matter.js changes the `id` only of
  // the paths it made with `at` for a value's members, never of a path it was given.)
  {
    file: ENDPOINT,
    from: '  get path() {\n    if (this.#owner) {\n      return this.#owner.path.at(this.identity, this.#type.name);\n    }\n    return new DataModelPath(this.identity, this.type?.name);\n  }\n',
    to: `  #path;
  get path() {
    const parent = this.#owner?.path;
    const id = this.identity;
    const type = parent === void 0 ? this.type?.name : this.#type.name;
    const path = this.#path;
    if (path !== void 0 && path.parent === parent && path.id === id && path.type === type) {
      return path;
    }
    return this.#path = parent === void 0 ? new DataModelPath(id, type) : parent.at(id, type);
  }
`,
  },
  // A reactor (one for each behaviour's reaction to an event, some 8 an endpoint) made the array for reactions that
  // come while it reacts as it was made: now when the first comes, and let go when emptied.
  {
    file: REACTORS,
    from: '  #deferred = Array();\n',
    to: '  #deferred;\n',
  },
  {
    file: REACTORS,
    from: '      if (this.#deferred.length) {\n',
    to: '      if (this.#deferred?.length) {\n',
  },
  {
    file: REACTORS,
    from: '        const next = this.#deferred.shift();\n',
    to: '        const next = this.#deferred.shift();\n        if (this.#deferred.length === 0) {\n          this.#deferred = void 0;\n        }\n',
  },
  {
    file: REACTORS,
    from: '      this.#deferred.push(deferredReaction);\n',
    to: '      (this.#deferred ??= Array()).push(deferredReaction);\n',
  },
  // A node's protocol view of an endpoint (EndpointState's `protocol`) holds its clusters by their ids, integer keys,
  // which V8 keeps in a holey array of elements as long as the largest id and then some: 164 slots (1.3 kB) for an
  // endpoint with Scenes Management (0x62). A key set far beyond them first (and deleted) makes the elements a number
  // dictionary, which they stay (Node 20's V8): 52 slots for a light's seven clusters.
  {
    file: PROTOCOL_SERVICE,
    from: '      [Symbol.iterator]: this.#clusters[Symbol.iterator].bind(this.#clusters)\n    };\n  }\n',
    to: '      [Symbol.iterator]: this.#clusters[Symbol.iterator].bind(this.#clusters)\n    };\n    this.protocol[4294967294] = void 0;\n    delete this.protocol[4294967294];\n  }\n',
  },
  // A construction (each endpoint's and each of its behaviours') kept the promise its initializer returned, and the
  // promise it gave those that awaited it, with their resolving functions, once resolved: neither is read again once
  // active (`then` makes a settled promise then, and a restart makes a new one). Its `ready` was an object with a
  // closure of its own (and a context): an instance of one class now, whose `then` does what the closure did.
  {
    file: CONSTRUCTION,
    from: '      this.#initializerPromise = initializer();\n      if (MaybePromise.is(this.#initializerPromise)) {\n        this.#initializerPromise.then(\n',
    to: '      const initializerPromise = initializer();\n      if (MaybePromise.is(initializerPromise)) {\n        initializerPromise.then(\n',
  },
  {
    file: CONSTRUCTION,
    from: '        this.#awaiterResolve = this.#awaiterReject = void 0;\n        resolve(this.#subject);\n      }\n',
    to: '        this.#awaiterResolve = this.#awaiterReject = void 0;\n        resolve(this.#subject);\n      }\n      if (this.#status !== Lifecycle.Status.Inactive && this.#status !== Lifecycle.Status.Initializing) {\n        this.#awaiterPromise = void 0;\n      }\n',
  },
  {
    file: CONSTRUCTION,
    from: `        this.#readyThenable = {
          [Symbol.toStringTag]: "AsyncConstruction#primary",
          then: (onfulfilled, onrejected) => {
            let rejectionHandler;
            if (onrejected) {
              this.#primaryCauseHandled = true;
              rejectionHandler = () => onrejected(errorOf(this.#error));
            }
            return this.then(onfulfilled, rejectionHandler);
          }
        };
      }
      return this.#readyThenable;
    }
`,
    to: `        this.#readyThenable = new ReadyThenable(this);
      }
      return this.#readyThenable;
    }
    static {
      readyThen = (construction, onfulfilled, onrejected) => {
        let rejectionHandler;
        if (onrejected) {
          construction.#primaryCauseHandled = true;
          rejectionHandler = () => onrejected(errorOf(construction.#error));
        }
        return construction.then(onfulfilled, rejectionHandler);
      };
    }
`,
  },
  {
    file: CONSTRUCTION,
    from: 'const createConstruction = /* @__PURE__ */ (() => {\n  class Construction2 {\n',
    to: `const createConstruction = /* @__PURE__ */ (() => {
  let readyThen;
  class ReadyThenable {
    #construction;
    constructor(construction) {
      this.#construction = construction;
    }
    get [Symbol.toStringTag]() {
      return "AsyncConstruction#primary";
    }
    then(onfulfilled, onrejected) {
      return readyThen(this.#construction, onfulfilled, onrejected);
    }
  }
  class Construction2 {
`,
  },
  // A behaviour's datasource gives its State (made with the type's defaults) the initial values, and at each write
  // transaction a new State a copy of the values, by a keyed store for each (`values[key] = …`); V8 turns an object
  // that gets more than 12 properties beyond those it holds in itself by keyed stores into a dictionary: Bridged Device
  // Basic Information's state, 30 properties, was a dictionary of 1.6 kB in every endpoint. A property new to the
  // object whose name the prototypes do not hold as an accessor or read-only is now defined (Object.defineProperty,
  // which V8 lets add up to 128): the same own, writable, enumerable property a store would have made.
  {
    file: DATASOURCE,
    from: '      values[key] = initialValues[key];\n',
    to: '      storeValue(values, key, initialValues[key]);\n',
  },
  {
    file: DATASOURCE,
    from: '        this.#values[key] = old[key];\n',
    to: '        storeValue(this.#values, key, old[key]);\n',
  },
  {
    file: DATASOURCE,
    from: 'function madeEvent(events, name) {\n',
    to: `const plainKeys = /* @__PURE__ */ new WeakMap();
function storeValue(target, key, value) {
  const proto = Object.getPrototypeOf(target);
  let plain = proto === null ? void 0 : plainKeys.get(proto);
  if (plain === void 0 && proto !== null) {
    plain = /* @__PURE__ */ new Map();
    plainKeys.set(proto, plain);
  }
  let isPlain = plain?.get(key);
  if (isPlain === void 0) {
    isPlain = true;
    for (let o = proto; o !== null; o = Object.getPrototypeOf(o)) {
      const descriptor = Object.getOwnPropertyDescriptor(o, key);
      if (descriptor !== void 0) {
        isPlain = descriptor.writable === true;
        break;
      }
    }
    plain?.set(key, isPlain);
  }
  if (!isPlain || Object.hasOwn(target, key) || !Object.isExtensible(target)) {
    target[key] = value;
  } else {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  }
}
function madeEvent(events, name) {
`,
  },
  // Each behaviour of each endpoint was given its attributeList, acceptedCommandList and generatedCommandList, arrays
  // of ids the same for every behaviour of a type with the same features: now one array for each list of ids. matter.js
  // changes a list attribute's value by replacing it (a managed list writes to a copy), never in place.
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: '    globals.attributeList = [...validation.attributeIds.values()].sort((a, b) => a - b);\n',
    to: '    globals.attributeList = sharedIds([...validation.attributeIds.values()].sort((a, b) => a - b));\n',
  },
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: '    globals.acceptedCommandList = acceptedIds.sort((a, b) => a - b);\n    globals.generatedCommandList = [...generatedIds].sort((a, b) => a - b);\n',
    to: '    globals.acceptedCommandList = sharedIds(acceptedIds.sort((a, b) => a - b));\n    globals.generatedCommandList = sharedIds([...generatedIds].sort((a, b) => a - b));\n',
  },
  {
    file: SERVER_BEHAVIOR_BACKING,
    from: 'export {\n  FeatureMismatchError,\n  ServerBehaviorBacking\n};\n',
    to: `const idsByList = /* @__PURE__ */ new Map();
function sharedIds(ids) {
  const key = ids.join(",");
  const shared = idsByList.get(key);
  if (shared !== void 0) return shared;
  idsByList.set(key, ids);
  return ids;
}
export {
  FeatureMismatchError,
  ServerBehaviorBacking
};
`,
  },
  // An ObserverGroup (a behaviour backing's quiet observers, Scenes Management's attribute observers: some 2.5 an
  // endpoint) made its two Maps as it was made, most never used (the one of bound observers nothing fills): now when
  // the first observer comes.
  {
    file: OBSERVABLE,
    from: '  #observers = /* @__PURE__ */ new Map();\n  #boundObservers = /* @__PURE__ */ new Map();\n  constructor(target) {\n    this.#defaultTarget = target;\n  }\n',
    to: '  #observers;\n  #boundObservers;\n  constructor(target) {\n    this.#defaultTarget = target;\n  }\n',
  },
  {
    file: OBSERVABLE,
    from: '    const observers = this.#observers.get(observable);\n    if (observers === void 0) {\n      this.#observers.set(observable, [observer]);\n',
    to: '    const observers = this.#observers?.get(observable);\n    if (observers === void 0) {\n      (this.#observers ??= /* @__PURE__ */ new Map()).set(observable, [observer]);\n',
  },
  {
    file: OBSERVABLE,
    from: '      const observers2 = this.#boundObservers.get(observer);\n',
    to: '      const observers2 = this.#boundObservers?.get(observer);\n',
  },
  {
    file: OBSERVABLE,
    from: '    const observers = this.#observers.get(observable);\n    if (observers) {\n',
    to: '    const observers = this.#observers?.get(observable);\n    if (observers) {\n',
  },
  {
    file: OBSERVABLE,
    from: '    return (this.#observers.get(observable)?.length ?? 0) > 0;\n',
    to: '    return (this.#observers?.get(observable)?.length ?? 0) > 0;\n',
  },
  {
    file: OBSERVABLE,
    from: '    return this.#observers.get(observable)?.includes(observer) ?? false;\n',
    to: '    return this.#observers?.get(observable)?.includes(observer) ?? false;\n',
  },
  {
    file: OBSERVABLE,
    from: '    for (const [observable, observers] of this.#observers.entries()) {\n',
    to: '    for (const [observable, observers] of this.#observers?.entries() ?? []) {\n',
  },
  {
    file: OBSERVABLE,
    from: '    this.#observers.clear();\n    this.#boundObservers.clear();\n',
    to: '    this.#observers = this.#boundObservers = void 0;\n',
  },
  // Each behaviour of each endpoint has a store (DatasourceStore) that was an object with a closure of its own for
  // `set` (and a context): an instance of one class now, whose method does what the closure did.
  {
    file: 'node/dist/esm/storage/server/DatasourceStore.js',
    from: `function DatasourceStore(endpointStore, behaviorId, initialValues) {
  return {
    initialValues,
    async set(transaction, values) {
      if (behaviorId === "__proto__") {
        return;
      }
      const participant = participantFor(transaction, endpointStore);
      if (!participant.mutations) {
        participant.mutations = {};
      }
      const behaviorMutations = participant.mutations[behaviorId];
      if (behaviorMutations) {
        for (const key in values) {
          behaviorMutations[key] = values[key];
        }
      } else {
        participant.mutations[behaviorId] = { ...values };
      }
    }
  };
}
`,
    to: `class BehaviorStore {
  #endpointStore;
  #behaviorId;
  constructor(endpointStore, behaviorId, initialValues) {
    this.initialValues = initialValues;
    this.#endpointStore = endpointStore;
    this.#behaviorId = behaviorId;
  }
  set(transaction, values) {
    return setBehaviorValues(this.#endpointStore, this.#behaviorId, transaction, values);
  }
}
function DatasourceStore(endpointStore, behaviorId, initialValues) {
  return new BehaviorStore(endpointStore, behaviorId, initialValues);
}
async function setBehaviorValues(endpointStore, behaviorId, transaction, values) {
  if (behaviorId === "__proto__") {
    return;
  }
  const participant = participantFor(transaction, endpointStore);
  if (!participant.mutations) {
    participant.mutations = {};
  }
  const behaviorMutations = participant.mutations[behaviorId];
  if (behaviorMutations) {
    for (const key in values) {
      behaviorMutations[key] = values[key];
    }
  } else {
    participant.mutations[behaviorId] = { ...values };
  }
}
`,
  },
  // A storage context (two an endpoint, and one for each of its behaviours' stores) names its place by an array of the
  // context names above it and its own, made by spreading the parent's into a literal, which V8 gives room to grow:
  // 24 slots for six names. `concat` makes it exactly as long.
  {
    file: 'general/dist/esm/storage/StorageContext.js',
    from: '    return new StorageContext(this.storage, [...this.thisContexts, context]);\n',
    to: '    return new StorageContext(\n      this.storage,\n      typeof context === "string" ? this.thisContexts.concat(context) : [...this.thisContexts, context]\n    );\n',
  },
  // An endpoint's Descriptor lists the ids of its server and client clusters, arrays pushed one id at a time (room for
  // 16 more), the same for every endpoint of a type: one array for each list of ids now, as the attribute and command
  // ids above.
  {
    file: DESCRIPTOR_SERVER,
    from: '  get #serverList() {\n',
    to: '  get #serverList() {\n    return sharedClusterIds(this.#ownServerList);\n  }\n  get #clientList() {\n    return sharedClusterIds(this.#ownClientList);\n  }\n  get #ownServerList() {\n',
  },
  {
    file: DESCRIPTOR_SERVER,
    from: '  get #clientList() {\n    const list = new Array();\n',
    to: '  get #ownClientList() {\n    const list = new Array();\n',
  },
  {
    file: DESCRIPTOR_SERVER,
    from: 'export {\n  DescriptorServer\n};\n',
    to: `const clusterIdLists = /* @__PURE__ */ new Map();
function sharedClusterIds(ids) {
  const key = ids.join(",");
  const shared = clusterIdLists.get(key);
  if (shared !== void 0) return shared;
  const exact = ids.slice();
  clusterIdLists.set(key, exact);
  return exact;
}
export {
  DescriptorServer
};
`,
  },
];
