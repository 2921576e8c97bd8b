/** Where one sealed chunk is: on disk, or (`pending`) in memory until it is written or while the disk refuses writes. */
export interface ChunkRef {
  readonly entityId: string;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly count: number;
  readonly day: string;
  offset: number;
  length: number;
  crc: number;
  pending: Buffer | undefined;
  /**
   * The zlib level `pending` is still to be deflated at: a seal deflates a large chunk just before it is
   * written, on libuv's threads, so that it does not stop the event loop. Undefined once `pending` is deflated,
   * and for a chunk on disk.
   */
  deflateLevel: number | undefined;
  /** Its bytes on disk failed their checksum (logged once when found): queries skip it. */
  damaged: boolean;
}

export interface DayFile {
  readonly day: string;
  size: number;
  compacted: boolean;
  /** Damage was found in it at start: a copy is kept before compaction rewrites it without the damaged parts. */
  damaged: boolean;
}
