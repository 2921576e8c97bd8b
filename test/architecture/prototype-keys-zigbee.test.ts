import t from 'tap';
import { access, addExternalDefinition, Numeric, removeExternalDefinitions } from 'zigbee-herdsman-converters';
import { StubDevice, zclMessage, zigbeeTestbed } from '../drivers/zigbee/devices-helpers.js';
import { assertNotPolluted, HOSTILE_KEYS, hostileObject } from './hostile-keys.js';

/** Names an object inherits, as Zigbee model ids, converter keys and exposes (hostile-keys.ts). */

t.test('Zigbee: device model ids, converter keys and exposes named like inherited properties', async (t) => {
  for (const key of HOSTILE_KEYS) {
    addExternalDefinition({
      zigbeeModel: [key],
      model: key,
      vendor: key,
      description: 'exposes named like inherited properties',
      externalConverterName: `hearth-proto-${key}.mjs`,
      fromZigbee: [
        {
          cluster: 'genBasic',
          type: ['attributeReport'],
          convert: () => hostileObject((k) => (k === '__proto__' ? { polluted: 'yes' } : 7)) as Record<string, number>,
        },
      ],
      toZigbee: [],
      exposes: HOSTILE_KEYS.filter((k) => k !== '__proto__').map((k) => new Numeric(k, access.STATE).withUnit('W')),
    });
    t.teardown(() => removeExternalDefinitions(`hearth-proto-${key}.mjs`));
  }
  const bed = zigbeeTestbed();
  let n = 0;
  for (const key of HOSTILE_KEYS) {
    const device = new StubDevice({ ieee: `0x00000000000d1a0${n++}`, modelID: key, manufacturerName: key });
    const entities = await bed.add(device, `Meter ${n}`);
    entities.handleMessage(zclMessage(device, 'genBasic', 'attributeReport', { appVersion: 1 }));
    await entities.settled();
    const ids = entities.entities.map((e) => e.id).sort();
    if (key.toLowerCase() in Object.prototype) {
      // The converters' own index is a plain object: they fail to look such a model up (their error, logged), and
      // the device is shown as one they do not support.
      t.same(ids, [`sensor.meter_${n}_linkquality`], `model ${key}: unsupported, its link quality shown`);
      continue;
    }
    t.same(
      ids,
      [`sensor.meter_${n}_constructor`, `sensor.meter_${n}_hasownproperty`, `sensor.meter_${n}_linkquality`, `sensor.meter_${n}_tostring`],
      `model ${key}`,
    );
    for (const k of ['constructor', 'tostring', 'hasownproperty']) t.equal(bed.core.states.get(`sensor.meter_${n}_${k}`)?.state, '7');
  }
  const unknown = new StubDevice({ ieee: '0x00000000000d1aff', modelID: 'hasOwnProperty.unknown', manufacturerName: '__proto__' });
  const plain = await bed.add(unknown, 'Unknown');
  t.same(
    plain.entities.map((e) => e.id),
    ['sensor.unknown_linkquality'],
    'a model the converters do not know: its link quality',
  );
  t.doesNotThrow(() => JSON.parse(bed.core.states.statesJson()), 'the states are JSON');
  assertNotPolluted(t);
});
