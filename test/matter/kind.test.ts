// Endpoint types the bridge derives (a device type with one more behaviour) are made once and shared by every endpoint
// of that kind: matter.js makes a new type, which each endpoint keeps, at every `with`.
import t from 'tap';
import { silentLogger } from '../../src/core/log.js';
import { kindFor } from '../../src/matter/devices.js';
import { typeWith } from '../../src/matter/kind.js';
import { loadMatter } from '../../src/matter/lib.js';

t.test('two colour lights and two covers share their endpoint types, with the bridged-device information too', async (t) => {
  const lib = await loadMatter(silentLogger);
  const bridged = lib.behaviors.BridgedDeviceBasicInformationServer;
  const light = (id: string) =>
    kindFor(lib, `light.${id}`, {
      entity_id: `light.${id}`,
      state: 'on',
      attributes: { supported_color_modes: ['hs', 'color_temp'] },
    } as unknown as Parameters<typeof kindFor>[2]);
  const cover = (id: string) =>
    kindFor(lib, `cover.${id}`, { entity_id: `cover.${id}`, state: 'open', attributes: {} } as unknown as Parameters<typeof kindFor>[2]);
  const [a, b, c, d] = [light('a'), light('b'), cover('a'), cover('b')];
  if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error('no Matter device for a light or a cover');
  t.equal(a.type, b.type, "the colour lights' device type with hue/saturation is made once");
  t.equal(c.type, d.type, "the covers' device type with lift is made once");
  t.not(a.type, c.type);
  t.equal(typeWith(a.type, bridged), typeWith(b.type, bridged), 'with the bridged-device information, made once');
  t.not(a.type.with(bridged), a.type.with(bridged), "matter.js's own with() makes a new type each time");
  t.equal(typeWith(a.type, bridged).deviceType, a.type.deviceType, 'the derived type is the same device type');
});
