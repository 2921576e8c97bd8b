// hap-nodejs as src/homekit/load-hap.ts loads it: without the packages hearth never runs, and with services that
// record their optional characteristics' types instead of building an instance of each, while getCharacteristic
// still takes an optional type quietly and an unknown one with hap-nodejs's warning.
import { createRequire } from 'node:module';
import t from 'tap';
import { loadHap } from '../../src/homekit/load-hap.js';

t.test('the advertisers hearth does not use are not loaded: their packages are stubs that say so', async (t) => {
  loadHap();
  const require = createRequire(import.meta.url);
  const files = Object.keys(require.cache);
  t.ok(
    files.some((f) => /[\\/]hap-nodejs[\\/]/.test(f)),
    'hap-nodejs is loaded',
  );
  const advertisers = files.filter((f) => /[\\/](bonjour-hap|@homebridge[\\/]dbus-native|xml2js|sax|multicast-dns)[\\/]/.test(f));
  t.equal(advertisers.length, 2, 'one entry each for bonjour-hap and dbus-native, nothing they require');
  for (const f of advertisers) {
    const stub = require.cache[f]?.exports as Record<string, unknown>;
    t.throws(() => stub.systemBus, /hearth loads hap-nodejs without/, 'using one says why it is not there');
  }
});

t.test('a service builds none of its optional characteristics, and getCharacteristic still takes them', async (t) => {
  const hap = loadHap();
  const light = new hap.Service.Lightbulb('Porch');
  t.ok(light.optionalCharacteristics.length > 0, 'the optional types are recorded');
  t.notOk(
    light.optionalCharacteristics.some((c) => c instanceof hap.Characteristic),
    'none of them is a characteristic instance',
  );
  const warnings: string[] = [];
  light.on('characteristic-warning', (w: { message: string }) => warnings.push(w.message));
  const brightness = light.getCharacteristic(hap.Characteristic.Brightness);
  t.ok(brightness instanceof hap.Characteristic, 'an optional type is added as a characteristic');
  t.equal(light.getCharacteristic(hap.Characteristic.Brightness), brightness, 'once');
  t.same(warnings, [], 'without a warning');
  light.getCharacteristic(hap.Characteristic.CurrentTemperature);
  t.equal(warnings.length, 1, 'a type the service does not list still gets hap-nodejs warning');
});
