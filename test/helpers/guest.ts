import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `<dataDir>/auth.json` holding one non-admin user (Guest) with one long-lived token, before a hub starts on
 * that data dir; returns the token. The hub adds its own owner as usual.
 */
export async function writeGuestAuth(dataDir: string): Promise<string> {
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
  return `guesttoken.${secret}`;
}
