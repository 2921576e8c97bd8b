// Changes to matter.js's own code in hearth/matter.cjs for the heap each bridged endpoint takes (docs/performance.md,
// "Matter bridge"). Part of MATTER_PATCHES (scripts/matter-patches.mjs): the build fails when matter.js no longer has
// the text a change replaces.
import { HELD_PATCHES } from './matter-patches-endpoint-held.mjs';

const DATASOURCE = 'node/dist/esm/behavior/state/managed/Datasource.js';
const CLUSTER_BEHAVIOR_TYPE = 'node/dist/esm/behavior/cluster/ClusterBehaviorType.js';
const SERVER_BEHAVIOR_BACKING = 'node/dist/esm/behavior/internal/ServerBehaviorBacking.js';
const GENERATED_CLASS = 'general/dist/esm/util/GeneratedClass.js';
const PROTOCOL_SERVICE = 'node/dist/esm/node/integration/ProtocolService.js';
const BEHAVIORS = 'node/dist/esm/endpoint/properties/Behaviors.js';

export const ENDPOINT_PATCHES = [
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
    from: '  commands = {};\n  skipCommandValidation;\n  constructor(type, backing) {\n    this.type = type;\n    this.#datasource = backing.datasource;\n    this.#endpointId = backing.endpoint.number;\n    for (const cmd of type.commands) {\n      const commandModels = this.#commandModels(backing, cmd);\n      this.commands[cmd.id] = (args, session) => invokeCommand(backing, cmd, args, session, commandModels);\n    }\n',
    to: '  #backing;\n  #commands;\n  skipCommandValidation;\n  constructor(type, backing) {\n    this.type = type;\n    this.#datasource = backing.datasource;\n    this.#endpointId = backing.endpoint.number;\n    this.#backing = backing;\n',
  },
  {
    file: PROTOCOL_SERVICE,
    from: '  #commandModels(backing, cmd) {\n',
    to: '  get commands() {\n    if (this.#commands === void 0) {\n      const backing = this.#backing;\n      const commands = {};\n      for (const cmd of this.type.commands) {\n        const commandModels = this.#commandModels(backing, cmd);\n        commands[cmd.id] = (args, session) => invokeCommand(backing, cmd, args, session, commandModels);\n      }\n      this.#commands = commands;\n    }\n    return this.#commands;\n  }\n  #commandModels(backing, cmd) {\n',
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
    from: '    const { id } = type;\n    const get = () => {\n      const status = this.#endpoint.construction.status;\n      if (status === Lifecycle.Status.Destroying || status === Lifecycle.Status.Destroyed) {\n        return void 0;\n      }\n      return this.#backingFor(type).stateView;\n    };\n',
    to: '    const { id } = type;\n    this.#augmented[id] = type;\n    stateAugmentedBy.set(this.#endpoint.state, this);\n    eventsAugmentedBy.set(this.#endpoint.events, this);\n    const get = sharedAccessor(id);\n',
  },
  {
    file: BEHAVIORS,
    from: '    Object.defineProperty(this.#endpoint.events, id, {\n      get: () => {\n        let events = this.#events[id];\n        if (!events) {\n          events = this.#events[id] = this.#createEventsFor(type);\n        }\n        return events;\n      },\n      enumerable: true,\n      configurable: true\n    });\n  }\n',
    to: '    Object.defineProperty(this.#endpoint.events, id, { get, enumerable: true, configurable: true });\n  }\n  [AUGMENTED_STATE](id) {\n    const status = this.#endpoint.construction.status;\n    if (status === Lifecycle.Status.Destroying || status === Lifecycle.Status.Destroyed) {\n      return void 0;\n    }\n    return this.#backingFor(this.#augmented[id]).stateView;\n  }\n  [AUGMENTED_EVENTS](id) {\n    let events = this.#events[id];\n    if (!events) {\n      events = this.#events[id] = this.#createEventsFor(this.#augmented[id]);\n    }\n    return events;\n  }\n',
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
  ...HELD_PATCHES,
];
