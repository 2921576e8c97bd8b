import { isJsonObject, type JsonValue } from '../core/json.js';
import type { PackageOrigins } from './packages.js';
import type { ConfigPath } from './reader.js';

function startsWith(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

/**
 * Where each item of a section merged from labelled keys and packages came from, so a problem the section's validator
 * finds at `automation[5]` is shown at `automation ui[2]`, or in the package that gave it, in the file that holds it.
 */
export class Origins {
  private readonly keys: string[] = [];
  /** The place in the file of each item of the merged list. */
  private readonly items: ConfigPath[] = [];
  /** The place in the file of the mapping that gave each name of the merged mapping. */
  private readonly names = new Map<string, ConfigPath>();

  /** The key that started the section. */
  get first(): string {
    return this.keys[0] ?? '';
  }

  /** Records what `key` adds to the section (its whole value when it starts it); `from`: what packages added to it. */
  add(key: string, value: JsonValue, from?: PackageOrigins): void {
    this.keys.push(key);
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) this.items.push(from?.items.get(i) ?? [key, i]);
    else if (isJsonObject(value))
      for (const name of Object.keys(value)) if (!this.names.has(name)) this.names.set(name, from?.names.get(name) ?? [key]);
  }

  /** The path in the merged section of a path in the file; undefined when the merged section does not hold it. */
  toSection(section: string, path: ConfigPath): ConfigPath | undefined {
    const i = this.items.findIndex((at) => startsWith(path, at));
    if (i >= 0) return [section, i, ...path.slice((this.items[i] as ConfigPath).length)];
    for (const [name, at] of this.names) {
      if (startsWith(path, [...at, name])) return [section, name, ...path.slice(at.length + 1)];
    }
    const [key] = path;
    if (typeof key === 'string' && this.keys.includes(key) && path.length === 1) return [section];
    return undefined;
  }

  /** The path in the file of a path in the merged section. */
  toFile(path: ConfigPath): ConfigPath {
    const [, item, ...rest] = path;
    const fromList = typeof item === 'number' ? this.items[item] : undefined;
    if (fromList !== undefined) return [...fromList, ...rest];
    const fromMap = typeof item === 'string' ? this.names.get(item) : undefined;
    if (fromMap !== undefined) return [...fromMap, ...path.slice(1)];
    return [this.keys[0] ?? String(path[0]), ...path.slice(1)];
  }
}
