import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isIpAddress, normalizeAddress } from '../auth/address.js';
import { BANS_FILE, parseBans, writeBans } from '../auth/ban-file.js';
import { stderrLogger } from './stderr-logger.js';
import { EXIT_FAILURE, EXIT_OK, optionalString, parseCommandArgs, printable, UsageError } from './usage.js';

export const UNBAN_USAGE = `Usage: hearth unban [--data DIR] ADDRESS
       hearth unban [--data DIR] --list

Lifts the ban on ADDRESS (an IPv4 or IPv6 address), which the hub banned after too many failed
logins (http: login_attempts_threshold). Bans are kept in DIR/${BANS_FILE}; a running hub picks the
change up at once.

Options:
  --data DIR  Data directory (default: ./data)
  --list      List the banned addresses
  -h, --help  Show this help
`;

const DEFAULT_DATA = './data';

export interface UnbanIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: UnbanIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** `hearth unban ADDRESS`; returns the exit code. */
export async function unbanCommand(args: readonly string[], io: UnbanIo = processIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { data: { type: 'string' }, list: { type: 'boolean' } }, UNBAN_USAGE, true);
  if (values.help) {
    io.out(UNBAN_USAGE);
    return EXIT_OK;
  }
  const dataDir = optionalString(values, 'data') ?? DEFAULT_DATA;
  if (values.list === true) {
    if (positionals.length > 0) throw new UsageError('--list takes no ADDRESS', UNBAN_USAGE);
    const bans = await readBans(dataDir, io);
    if (bans === undefined) return EXIT_FAILURE;
    io.out(bans.size === 0 ? 'No address is banned.\n' : [...bans].map(([ip, b]) => `${ip}  banned at ${b.banned_at}\n`).join(''));
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'missing the ADDRESS to unban' : 'give one ADDRESS', UNBAN_USAGE);
  }
  const given = positionals[0] as string;
  if (!isIpAddress(given)) {
    throw new UsageError(`${JSON.stringify(printable(given))} is not an IP address (e.g. 192.168.1.20 or fe80::1)`, UNBAN_USAGE);
  }
  const ip = normalizeAddress(given);
  const bans = await readBans(dataDir, io);
  if (bans === undefined) return EXIT_FAILURE;
  if (!bans.delete(ip)) {
    const list = [...bans.keys()];
    io.err(`hearth: ${ip} is not banned in ${dataDir}${list.length > 0 ? `; banned: ${list.join(', ')}` : '; no address is banned'}\n`);
    return EXIT_FAILURE;
  }
  await writeBans(dataDir, bans);
  io.out(`Unbanned ${ip}.\n`);
  return EXIT_OK;
}

async function readBans(dataDir: string, io: UnbanIo): Promise<Map<string, { banned_at: string }> | undefined> {
  const path = join(dataDir, BANS_FILE);
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const bans = parseBans(text, stderrLogger());
  if (bans === undefined) io.err(`hearth: ${path} is not valid YAML of addresses; fix or delete it\n`);
  return bans;
}
