import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/**
 * An append-only file of framed records: 4 bytes of payload length, 4 bytes of the payload's CRC-32 (both
 * little-endian), then the payload. kill -9 or a power cut can leave a torn last record; reading stops at
 * the first frame whose length or checksum does not hold, so a torn tail is detected and ignored.
 */
const HEADER_BYTES = 8;
/** Larger than any record the store writes; a length beyond it is garbage, not a record. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export function encodeRecord(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, HEADER_BYTES);
  return out;
}

export interface DecodedJournal {
  readonly records: Buffer[];
  /** Bytes of whole, valid records from the start; anything after is a torn or corrupt tail. */
  readonly goodBytes: number;
}

export function decodeRecords(data: Buffer): DecodedJournal {
  const records: Buffer[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(at);
    if (length > MAX_RECORD_BYTES || at + HEADER_BYTES + length > data.length) break;
    const payload = data.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length);
    if (crc32(payload) !== data.readUInt32LE(at + 4)) break;
    records.push(payload);
    at += HEADER_BYTES + length;
  }
  return { records, goodBytes: at };
}

/**
 * The file operations the journal needs, behind one small interface so tests can inject a full disk
 * (ENOSPC after a partial write) where mounting a small tmpfs is not possible.
 */
export interface AppendFile {
  /** Appends all of `data` and makes it durable (fdatasync) before resolving. */
  append(data: Uint8Array): Promise<void>;
  /** Cuts the file to `length` bytes, durably. */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export type OpenAppendFile = (path: string) => Promise<AppendFile>;

/** The real file: O_APPEND, so every write lands at the end whatever was truncated before. */
export const openAppendFile: OpenAppendFile = async (path) => {
  const fh: FileHandle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
  return {
    async append(data) {
      // A short write (the disk filling up) is followed by another, which then fails with ENOSPC.
      for (let done = 0; done < data.length; ) done += (await fh.write(data, done)).bytesWritten;
      await fh.datasync();
    },
    async truncate(length) {
      await fh.truncate(length);
      await fh.datasync();
    },
    close: () => fh.close(),
  };
};
