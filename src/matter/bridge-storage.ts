// matter.js's file storage with the bridged endpoints' attribute values kept in memory. matter.js stores each
// non-volatile attribute in a file of its own (written, flushed, renamed) before it reports a change: one SD-card write
// per state change. The bridge sets every bridged endpoint from the hub's state when it starts, so those values need no
// storing; everything else (fabrics, the node's own state, each bridged endpoint's `__number__`) goes to the files.
//
// Keys are (contexts, key). A bridged endpoint is `root.parts.aggregator.parts.<id>` (its `__number__` is a key of
// that context), child parts add `parts.<id>`, and a behaviour's values are the keys of one more context under the
// endpoint's: `root.parts.aggregator.parts.<id>.onOff` / `onOff`.

type Value = unknown;

/** The part of matter.js's StorageDriver (a key/value driver) this wrapper overrides; values are matter.js's own. */
export interface KvDriver {
  initialize(): Promise<void>;
  get(contexts: string[], key: string): Promise<Value>;
  set(contexts: string[], keyOrValues: string | Record<string, Value>, value?: Value): Promise<void>;
  delete(contexts: string[], key: string): Promise<void>;
  has(contexts: string[], key: string): Promise<boolean>;
  keys(contexts: string[]): Promise<string[]>;
  values(contexts: string[]): Promise<Record<string, Value>>;
  contexts(contexts: string[]): string[] | Promise<string[]>;
  clearAll(contexts: string[]): Promise<void>;
}
type KvDriverClass = new (namespace: unknown) => KvDriver;

const BRIDGED = ['root', 'parts', 'aggregator', 'parts'];

/** Whether a context holds a bridged endpoint's behaviour values (in memory) rather than endpoint keys (on disk). */
export function isBridgedValues(contexts: readonly string[]): boolean {
  if (contexts.length < BRIDGED.length + 2) return false;
  for (let i = 0; i < BRIDGED.length; i++) if (contexts[i] !== BRIDGED[i]) return false;
  let i = BRIDGED.length + 1; // past the part id
  while (contexts[i] === 'parts') i += 2;
  return i < contexts.length;
}

/**
 * matter.js's FileStorageDriver (passed in: matter.js is loaded at run time) with the bridged endpoints' attribute
 * values in memory only. It keeps the file driver's id, "file", so an existing data directory opens as before; the
 * attribute files an earlier version wrote are removed when it opens.
 */
export function bridgeStorageDriver(FileDriver: KvDriverClass): KvDriverClass & { id: string; create(ns: unknown): Promise<KvDriver> } {
  class BridgeStorageDriver extends FileDriver {
    static readonly id = 'file';

    static async create(namespace: unknown): Promise<KvDriver> {
      const driver = new BridgeStorageDriver(namespace);
      await driver.initialize();
      await driver.#dropStoredValues(BRIDGED);
      return driver;
    }

    /** Values by context (its names joined by '.', which the file driver forbids inside a name), then key. */
    readonly #memory = new Map<string, Map<string, Value>>();

    async #dropStoredValues(contexts: string[]): Promise<void> {
      for (const part of await super.contexts(contexts)) {
        const endpoint = [...contexts, part];
        for (const name of await super.contexts(endpoint)) {
          if (name === 'parts') await this.#dropStoredValues([...endpoint, name]);
          else await super.clearAll([...endpoint, name]);
        }
      }
    }

    override async get(contexts: string[], key: string): Promise<Value> {
      if (!isBridgedValues(contexts)) return super.get(contexts, key);
      return this.#memory.get(contexts.join('.'))?.get(key);
    }

    override async set(contexts: string[], keyOrValues: string | Record<string, Value>, value?: Value): Promise<void> {
      if (!isBridgedValues(contexts)) return super.set(contexts, keyOrValues, value);
      const name = contexts.join('.');
      let values = this.#memory.get(name);
      if (values === undefined) {
        values = new Map();
        this.#memory.set(name, values);
      }
      if (typeof keyOrValues === 'string') values.set(keyOrValues, value);
      else for (const [key, v] of Object.entries(keyOrValues)) values.set(key, v);
    }

    override async delete(contexts: string[], key: string): Promise<void> {
      if (!isBridgedValues(contexts)) return super.delete(contexts, key);
      this.#memory.get(contexts.join('.'))?.delete(key);
    }

    override async has(contexts: string[], key: string): Promise<boolean> {
      if (!isBridgedValues(contexts)) return super.has(contexts, key);
      return this.#memory.get(contexts.join('.'))?.has(key) === true;
    }

    override async keys(contexts: string[]): Promise<string[]> {
      if (!isBridgedValues(contexts)) return super.keys(contexts);
      return [...(this.#memory.get(contexts.join('.'))?.keys() ?? [])];
    }

    override async values(contexts: string[]): Promise<Record<string, Value>> {
      if (!isBridgedValues(contexts)) return super.values(contexts);
      const out: Record<string, Value> = Object.create(null);
      for (const [key, value] of this.#memory.get(contexts.join('.')) ?? []) out[key] = value;
      return out;
    }

    override async contexts(contexts: string[]): Promise<string[]> {
      const names = new Set(await super.contexts(contexts));
      const prefix = contexts.length === 0 ? '' : `${contexts.join('.')}.`;
      for (const name of this.#memory.keys()) {
        if (name.startsWith(prefix)) names.add(name.slice(prefix.length).split('.', 1)[0] as string);
      }
      return [...names];
    }

    override async clearAll(contexts: string[]): Promise<void> {
      const name = contexts.join('.');
      for (const key of [...this.#memory.keys()]) if (key === name || key.startsWith(`${name}.`)) this.#memory.delete(key);
      await super.clearAll(contexts);
    }
  }
  return BridgeStorageDriver;
}
