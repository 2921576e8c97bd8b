import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendChip } from './line.js';

/** One GPIO controller as sysfs lists it under `<root>/class/gpio/gpiochip<base>`. */
export interface GpioChip {
  /** The directory name, e.g. `gpiochip512`. */
  readonly dir: string;
  /** The sysfs number of the chip's line 0: a BCM line `n` is exported as `base + n`. */
  readonly base: number;
  readonly label: string;
  readonly ngpio: number;
  /** The character device (`/dev/gpiochip4`), when the chip was found through it. */
  readonly devPath?: string;
}

/**
 * Labels of the controllers whose line numbers are the BCM numbers on the 40-pin header, in order of
 * preference: a Pi 5 has both the SoC's brcmstb banks and the RP1, and the header is on the RP1.
 */
export const HEADER_CHIP_LABELS: readonly string[] = ['pinctrl-rp1', 'rp1', 'pinctrl-bcm2712', 'pinctrl-bcm2711', 'pinctrl-bcm2835'];

/** Raised when the GPIO sysfs interface is missing or has no usable controller; the message says what to do. */
export class GpioChipError extends Error {
  override readonly name = 'GpioChipError';
}

/** The sysfs GPIO class directory under a sysfs root (`/sys` on a Pi). */
export function gpioClassDir(sysfsRoot: string): string {
  return join(sysfsRoot, 'class', 'gpio');
}

/** Every gpiochip under `<root>/class/gpio`, sorted by base. Throws GpioChipError when the directory is absent. */
export async function listGpioChips(sysfsRoot: string): Promise<GpioChip[]> {
  const dir = gpioClassDir(sysfsRoot);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new GpioChipError(
        `GPIO sysfs is absent: ${dir} does not exist (not a Raspberry Pi, or a kernel without CONFIG_GPIO_SYSFS); GPIO entities stay unavailable`,
      );
    }
    throw new GpioChipError(`cannot list ${dir}: ${(err as Error).message}`);
  }
  const chips: GpioChip[] = [];
  for (const name of names) {
    if (!/^gpiochip\d+$/.test(name)) continue;
    const chip = await readChip(join(dir, name), name);
    if (chip !== undefined) chips.push(chip);
  }
  return chips.sort((a, b) => a.base - b.base);
}

async function readChip(path: string, dir: string): Promise<GpioChip | undefined> {
  try {
    const [base, label, ngpio] = await Promise.all(['base', 'label', 'ngpio'].map((f) => readFile(join(path, f), 'utf8')));
    const b = Number.parseInt(base ?? '', 10);
    const n = Number.parseInt(ngpio ?? '', 10);
    if (!Number.isInteger(b) || !Number.isInteger(n)) return undefined;
    return { dir, base: b, label: (label ?? '').trim(), ngpio: n };
  } catch {
    // A chip directory without its attribute files (being removed, or not a chip) is skipped.
    return undefined;
  }
}

/**
 * The controller BCM pin numbers refer to: the one labelled `label` when given, else the first of
 * HEADER_CHIP_LABELS present. Its base is 0 on older kernels, 512 on a Pi 4 with 6.6+, 571 on a Pi 5.
 */
export function pickHeaderChip(chips: readonly GpioChip[], label?: string): GpioChip {
  const wanted = label === undefined ? HEADER_CHIP_LABELS : [label];
  for (const l of wanted) {
    const chip = chips.find((c) => c.label === l);
    if (chip !== undefined) return chip;
  }
  const found = chips.length === 0 ? 'none' : chips.map((c) => `${c.dir} (${c.label}, ${c.ngpio} lines)`).join(', ');
  const hint =
    label === undefined
      ? `expected one labelled ${HEADER_CHIP_LABELS.join(', ')}; set gpio.chip to the label of the controller to use`
      : `no controller is labelled ${JSON.stringify(label)}`;
  throw new GpioChipError(`no Raspberry Pi GPIO controller found: ${hint}. Controllers present: ${found}`);
}

/** Lists the controllers and picks the header one (see pickHeaderChip). */
export async function resolveHeaderChip(sysfsRoot: string, label?: string): Promise<GpioChip> {
  return pickHeaderChip(await listGpioChips(sysfsRoot), label);
}

/** The sysfs number of BCM line `line` on `chip`; throws when the chip has no such line. */
export function sysfsNumber(chip: GpioChip, line: number): number {
  if (!Number.isInteger(line) || line < 0 || line >= chip.ngpio) {
    throw new GpioChipError(`GPIO${line} does not exist on ${chip.label}: it has lines 0 to ${chip.ngpio - 1}`);
  }
  return chip.base + line;
}

/**
 * The controllers a character-device backend lists, as chips whose line `n` is offset `n` (no base). On a
 * Pi 5 the header is pinctrl-rp1: gpiochip4 on older kernels, gpiochip0 on newer ones; the label decides.
 */
export function chipsFromDevices(devices: readonly BackendChip[]): GpioChip[] {
  return devices.map((d) => ({ dir: d.name, base: 0, label: d.label, ngpio: d.lines, devPath: d.path }));
}
