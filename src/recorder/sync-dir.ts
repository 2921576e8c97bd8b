import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Makes a directory's entries durable (a file created, renamed or removed in it): without it a power cut
 * can keep a file's data and lose its name. Local until the storage layer's own helper lands (issue 32).
 */
export async function syncDir(dir: string): Promise<void> {
  const dh = await open(dir, constants.O_RDONLY);
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}
