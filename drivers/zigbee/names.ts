import type { Logger } from '../../src/core/log.js';
import { DataFile, jsonOf, readDataFile } from '../../src/storage/data-file.js';

const isNames = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((n) => typeof n === 'string');

/** Friendly names given with `zigbee.rename_device` or imported from zigbee2mqtt, by IEEE address (names.json). */
export class NameStore {
  private names = new Map<string, string>();
  private readonly file: DataFile;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {
    this.file = new DataFile({
      path,
      log,
      label: 'Zigbee device names',
      render: () => `${JSON.stringify(Object.fromEntries([...this.names].sort()), null, 2)}\n`,
    });
  }

  async load(): Promise<void> {
    const load = await readDataFile(this.path, {
      log: this.log,
      parse: jsonOf(isNames, 'a mapping of IEEE address to name'),
      label: 'Zigbee device names',
      fallback: 'devices keep their configured or default names',
    });
    if (load.status === 'ok') this.names = new Map(Object.entries(load.value));
  }

  get(ieee: string): string | undefined {
    return this.names.get(ieee);
  }

  set(ieee: string, name: string | undefined): void {
    if (name === undefined) this.names.delete(ieee);
    else this.names.set(ieee, name);
    // Memory is the truth; a failed write is logged and retried by DataFile.
    this.file.save().catch(() => {});
  }

  /** Resolves when no write is in flight. */
  async settled(): Promise<void> {
    await this.file.settled();
  }

  async stop(): Promise<void> {
    await this.file.stop();
  }
}
