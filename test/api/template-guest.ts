import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';

/** A hub whose auth file also holds a non-admin user, with that user's token. */
export async function hubWithGuest(t: Teardown): Promise<{ th: TestHub; guestToken: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-template-'));
  const secret = 'guest-secret-of-enough-length';
  const now = new Date().toISOString();
  await writeFile(
    join(dataDir, 'auth.json'),
    JSON.stringify({
      version: 1,
      users: [{ id: 'guest0000', name: 'Guest', is_owner: false, is_admin: false, created_at: now }],
      tokens: [
        {
          id: 'guesttoken',
          user_id: 'guest0000',
          name: 'guest',
          hash: createHash('sha256').update(secret).digest('hex'),
          created_at: now,
          last_used_at: null,
        },
      ],
    }),
  );
  const th = await startTestHub(t, { dataDir });
  t.teardown(async () => {
    // Stop first (idempotent): stopping writes the auth file, which would recreate a removed directory.
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { th, guestToken: `guesttoken.${secret}` };
}
