import { stat } from 'node:fs/promises';
import type { RestoreStateOptions } from '../../src/restore/restore-state.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';
import { type OpenAppendFile, openAppendFile } from '../../src/storage/journal.js';

/** A disk of `capacity` bytes: an append that does not fit writes what fits, then fails with ENOSPC. */
export function fullDisk(capacity: { bytes: number }): Pick<RestoreStateOptions, 'openJournal' | 'writeSnapshot'> {
  let used = 0;
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  const openJournal: OpenAppendFile = async (path) => {
    const real = await openAppendFile(path);
    used = (await stat(path)).size;
    return {
      async append(data) {
        const room = capacity.bytes - used;
        if (data.length <= room) {
          await real.append(data);
          used += data.length;
          return;
        }
        if (room > 0) await real.append(data.subarray(0, room));
        used += Math.max(room, 0);
        throw enospc();
      },
      async truncate(length) {
        await real.truncate(length);
        used = length;
      },
      close: () => real.close(),
    };
  };
  return {
    openJournal,
    async writeSnapshot(path, text) {
      if (used + Buffer.byteLength(text) > capacity.bytes) throw enospc();
      await writeFileAtomic(path, text);
    },
  };
}
