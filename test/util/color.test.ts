import t from 'tap';
import { COLOR_NAMES, hsFromRgb, miredsKelvin, rgbFromHs, rgbFromKelvin, rgbFromName, rgbFromXy, xyFromRgb } from '../../src/util/color.js';

t.test('every CSS colour name, case and spaces ignored, plus Home Assistant extras', async (t) => {
  t.ok(COLOR_NAMES.length >= 149);
  t.same(rgbFromName('Rebecca Purple'), [102, 51, 153]);
  t.same(rgbFromName('homeassistant'), [24, 188, 242]);
  t.same(rgbFromName('navyblue'), [0, 0, 128]);
  t.equal(rgbFromName('nope'), undefined);
});

t.test('colour space conversions agree with Home Assistant', async (t) => {
  t.same(hsFromRgb([255, 0, 0]), [0, 100]);
  t.same(rgbFromHs([240, 100]), [0, 0, 255]);
  t.same(xyFromRgb([255, 255, 255]), [0.323, 0.329]);
  const back = rgbFromXy(xyFromRgb([255, 0, 0]));
  t.equal(back[0], 255);
  t.same(rgbFromKelvin(6600), [255, 255, 255]);
  t.equal(miredsKelvin(250), 4000);
  t.equal(miredsKelvin(4000), 250);
});
