import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGuestAuth } from '../helpers/guest.js';
import { startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';

/** A hub whose auth file also holds a non-admin user, with that user's token. */
export async function hubWithGuest(t: Teardown): Promise<{ th: TestHub; guestToken: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-template-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { dataDir });
  t.teardown(async () => {
    // Stop first (idempotent): stopping writes the auth file, which would recreate a removed directory.
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { th, guestToken };
}
