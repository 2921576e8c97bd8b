import type { Component } from '../core/component.js';

/**
 * A component for a part that is made by an async factory (it loads its file as it is created): opened on
 * start, closed on stop. `value` throws before start, so a later component cannot use it too early unnoticed.
 */
export class Opened<T> implements Component {
  private instance: T | undefined;

  constructor(
    readonly name: string,
    private readonly open: () => Promise<T>,
    private readonly close: (value: T) => Promise<void>,
  ) {}

  get value(): T {
    if (this.instance === undefined) throw new Error(`${this.name} is not started`);
    return this.instance;
  }

  async start(): Promise<void> {
    this.instance = await this.open();
  }

  async stop(): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    if (instance !== undefined) await this.close(instance);
  }
}
