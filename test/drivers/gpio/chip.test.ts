import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { GpioChipError, listGpioChips, pickHeaderChip, resolveHeaderChip, sysfsNumber } from '../../../drivers/gpio/chip.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/gpio/', import.meta.url));

t.test('Pi 3 on kernel 5.15: pinctrl-bcm2835 at base 0, the firmware expander at 504 is not picked', async (t) => {
  const chips = await listGpioChips(join(FIXTURES, 'pi3-5.15'));
  t.same(
    chips.map((c) => [c.dir, c.base, c.label, c.ngpio]),
    [
      ['gpiochip0', 0, 'pinctrl-bcm2835', 54],
      ['gpiochip504', 504, 'raspberrypi-exp-gpio', 8],
    ],
  );
  const chip = pickHeaderChip(chips);
  t.equal(chip.label, 'pinctrl-bcm2835');
  t.equal(sysfsNumber(chip, 17), 17);
});

t.test('Pi 4 on kernel 6.6: pinctrl-bcm2711 at base 512, so BCM 17 is sysfs 529', async (t) => {
  const chip = await resolveHeaderChip(join(FIXTURES, 'pi4-6.6'));
  t.equal(chip.dir, 'gpiochip512');
  t.equal(chip.base, 512);
  t.equal(chip.ngpio, 58);
  t.equal(sysfsNumber(chip, 17), 529);
  t.equal(sysfsNumber(chip, 0), 512);
});

t.test('Pi 5 on kernel 6.6: the RP1 (base 571) is picked over the SoC brcmstb banks at 512-570', async (t) => {
  const chips = await listGpioChips(join(FIXTURES, 'pi5-6.6'));
  t.equal(chips.length, 5);
  t.same(
    chips.map((c) => c.base),
    [512, 544, 549, 569, 571],
    'sorted by base',
  );
  const chip = pickHeaderChip(chips);
  t.equal(chip.label, 'pinctrl-rp1');
  t.equal(sysfsNumber(chip, 17), 588);
  t.throws(() => sysfsNumber(chip, 54), /GPIO54 does not exist on pinctrl-rp1: it has lines 0 to 53/);
});

t.test('a Pi 5 whose RP1 is labelled plain "rp1" is found too', async (t) => {
  const chip = pickHeaderChip([
    { dir: 'gpiochip512', base: 512, label: 'gpio-brcmstb@107d508500', ngpio: 32 },
    { dir: 'gpiochip569', base: 569, label: 'rp1', ngpio: 54 },
  ]);
  t.equal(chip.base, 569);
});

t.test('gpio.chip picks a controller by its exact label', async (t) => {
  const chip = await resolveHeaderChip(join(FIXTURES, 'pi4-6.6'), 'raspberrypi-exp-gpio');
  t.equal(chip.base, 570);
  await t.rejects(resolveHeaderChip(join(FIXTURES, 'pi4-6.6'), 'gpio-mockup-A'), {
    name: 'GpioChipError',
    message:
      /no controller is labelled "gpio-mockup-A".*gpiochip512 \(pinctrl-bcm2711, 58 lines\), gpiochip570 \(raspberrypi-exp-gpio, 8 lines\)/,
  });
});

t.test('GPIO sysfs absent: a clear error naming the directory', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-gpio-nosys-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const err = await resolveHeaderChip(root).catch((e: unknown) => e);
  t.ok(err instanceof GpioChipError);
  t.match((err as Error).message, `GPIO sysfs is absent: ${join(root, 'class', 'gpio')} does not exist`);
});

t.test('no known controller: the error lists what is there and how to choose', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-gpio-other-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, 'class', 'gpio', 'gpiochip0');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'base'), '0\n');
  await writeFile(join(dir, 'label'), 'gpio-sunxi\n');
  await writeFile(join(dir, 'ngpio'), '224\n');
  // A half-populated chip directory is skipped, not fatal.
  await mkdir(join(root, 'class', 'gpio', 'gpiochip300'));
  await t.rejects(resolveHeaderChip(root), {
    message:
      /expected one labelled pinctrl-rp1, rp1, .*pinctrl-bcm2835; set gpio\.chip .* Controllers present: gpiochip0 \(gpio-sunxi, 224 lines\)$/,
  });
  t.equal((await resolveHeaderChip(root, 'gpio-sunxi')).ngpio, 224);
});
