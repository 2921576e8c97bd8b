/**
 * Inflated chunks by key, least recently used first out, bounded in bytes. A chunk of a quarter of the
 * bound or more is not kept: it would push out most of the rest.
 */
export class ChunkCache {
  private readonly chunks = new Map<string, Buffer>();
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  get(key: string): Buffer | undefined {
    const chunk = this.chunks.get(key);
    if (chunk !== undefined) {
      // Most recently used last.
      this.chunks.delete(key);
      this.chunks.set(key, chunk);
    }
    return chunk;
  }

  put(key: string, chunk: Buffer): void {
    if (chunk.length >= this.maxBytes / 4) return;
    this.chunks.set(key, chunk);
    this.held += chunk.length;
    for (const [k, v] of this.chunks) {
      if (this.held <= this.maxBytes) break;
      this.chunks.delete(k);
      this.held -= v.length;
    }
  }

  clear(): void {
    this.chunks.clear();
    this.held = 0;
  }
}
