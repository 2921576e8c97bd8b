// The bridge's setup passcode and discriminator: generated once and kept in <data>/matter/setup.json, so the code
// printed on the /matter page stays the same across restarts (the fabrics themselves are matter.js's storage).
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import { jsonOf, readOrCreate } from '../storage/data-file.js';
import { FORBIDDEN_PASSCODES } from './config.js';

export interface MatterSetup {
  readonly passcode: number;
  readonly discriminator: number;
}

const SETUP_FILE = 'setup.json';

function isSetup(value: unknown): value is MatterSetup {
  const v = value as Partial<MatterSetup> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger(v.passcode) &&
    (v.passcode ?? 0) >= 1 &&
    (v.passcode ?? 0) <= 99999998 &&
    !FORBIDDEN_PASSCODES.has(v.passcode ?? 0) &&
    Number.isInteger(v.discriminator) &&
    (v.discriminator ?? -1) >= 0 &&
    (v.discriminator ?? 4096) <= 4095
  );
}

function newSetup(): MatterSetup {
  let passcode = 0;
  while (FORBIDDEN_PASSCODES.has(passcode)) passcode = randomInt(1, 99999999);
  return { passcode, discriminator: randomInt(4096) };
}

/** The stored setup in `dir`, or a new one written there. */
export async function loadSetup(dir: string, log: Logger): Promise<MatterSetup> {
  return readOrCreate(join(dir, SETUP_FILE), {
    log,
    parse: jsonOf(isSetup, '{"passcode", "discriminator"}'),
    label: 'Matter setup file',
    fallback: 'a new passcode: commission the bridge again',
    make: newSetup,
  });
}
