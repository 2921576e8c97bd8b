/** A message, or the shared first part of one: JSON text, or its UTF-8 bytes. */
export type Chunk = string | Uint8Array;

/** Told when a head enters or leaves a queue or the event log (a HeadSlab counts who holds its bytes). */
export interface HeadHolders {
  retain(head: Chunk): void;
  release(head: Chunk): void;
}

export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
