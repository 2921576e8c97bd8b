import t from 'tap';
import { memoryLogger } from '../../helpers/logger.js';
import { COORDINATOR_IEEE, DEVICES, StubDevice, zigbeeTestbed } from './devices-helpers.js';

/** The attributes of an entity's state, or undefined when it has none. */
function attrs(bed: ReturnType<typeof zigbeeTestbed>, entityId: string) {
  return bed.core.states.get(entityId)?.attributes;
}

t.test('an IKEA LED1545G12 bulb is a colour-temperature light with its range, effects and link quality', async (t) => {
  const bed = zigbeeTestbed();
  const bulb = await bed.add(new StubDevice(DEVICES.bulb), 'Living Room Bulb');
  t.equal(bulb.model, 'LED1545G12');
  t.equal(bulb.vendor, 'IKEA');
  t.ok(bulb.supported);
  t.same(
    bulb.entities.map((e) => e.id),
    [
      'light.living_room_bulb',
      'select.living_room_bulb_effect',
      'select.living_room_bulb_power_on_behavior',
      'sensor.living_room_bulb_color_options',
      'button.living_room_bulb_identify',
      'sensor.living_room_bulb_linkquality',
      'update.living_room_bulb',
    ],
  );
  t.same(attrs(bed, 'light.living_room_bulb'), {
    effect_list: ['blink', 'breathe', 'okay', 'channel_change', 'finish_effect', 'stop_effect'],
    min_color_temp_kelvin: 2202,
    max_color_temp_kelvin: 4000,
    min_mireds: 250,
    max_mireds: 454,
    supported_color_modes: ['color_temp'],
    supported_features: 4 | 8 | 32,
    friendly_name: 'Living Room Bulb',
  });
  t.equal(bed.core.states.get('light.living_room_bulb')?.state, 'unknown', 'nothing heard yet');
  t.equal(bed.core.entities.get('light.living_room_bulb')?.uniqueId, '0x000d6ffffe1a2b3c_light');
  t.same(attrs(bed, 'sensor.living_room_bulb_linkquality'), {
    state_class: 'measurement',
    unit_of_measurement: 'lqi',
    icon: 'mdi:signal',
    friendly_name: 'Living Room Bulb Linkquality',
  });
});

t.test('the device registry entry: identifiers, manufacturer, model, firmware, via the coordinator', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(new StubDevice(DEVICES.bulb), 'Living Room Bulb');
  const coordinator = bed.core.devices.byIdentifierOf(['zigbee', COORDINATOR_IEEE]);
  const entry = bed.core.devices.byIdentifierOf(['zigbee', '0x000d6ffffe1a2b3c']);
  t.match(entry, {
    name: 'Living Room Bulb',
    manufacturer: 'IKEA',
    model: 'TRADFRI bulb E26/E27, white spectrum, globe, opal, 980 lm (LED1545G12)',
    sw_version: '2.0.029 (20170905)',
    via_device_id: coordinator?.id,
  });
  for (const e of bed.core.entities.all()) t.equal(e.deviceId, entry?.id, `${e.id} belongs to the bulb`);
});

t.test('an Aqara WSDCGQ11LM: temperature, humidity, pressure, battery and voltage sensors with classes and units', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(new StubDevice(DEVICES.weather), 'Living Room');
  const expected: Record<string, object> = {
    'sensor.living_room_temperature': { state_class: 'measurement', unit_of_measurement: '°C', device_class: 'temperature' },
    'sensor.living_room_humidity': { state_class: 'measurement', unit_of_measurement: '%', device_class: 'humidity' },
    'sensor.living_room_pressure': { state_class: 'measurement', unit_of_measurement: 'hPa', device_class: 'atmospheric_pressure' },
    'sensor.living_room_battery': { state_class: 'measurement', unit_of_measurement: '%', device_class: 'battery' },
    'sensor.living_room_voltage': { state_class: 'measurement', unit_of_measurement: 'mV', device_class: 'voltage' },
    'sensor.living_room_linkquality': { state_class: 'measurement', unit_of_measurement: 'lqi' },
  };
  for (const [id, a] of Object.entries(expected)) t.match(attrs(bed, id), a, id);
  t.equal(bed.core.entities.get('sensor.living_room_temperature')?.uniqueId, '0x00158d0001a2b3c4_temperature');
  t.equal(attrs(bed, 'sensor.living_room_temperature')?.friendly_name, 'Living Room Temperature');
});

t.test('an Aqara MCCGQ11LM contact is a door binary_sensor', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(new StubDevice(DEVICES.contact), 'Front Door');
  t.same(attrs(bed, 'binary_sensor.front_door_contact'), { device_class: 'door', friendly_name: 'Front Door Contact' });
  t.match(attrs(bed, 'sensor.front_door_device_temperature'), { device_class: 'temperature', unit_of_measurement: '°C' });
});

t.test('a Tuya TS011F plug: an outlet switch, power, energy, voltage and current, and its child lock', async (t) => {
  const bed = zigbeeTestbed();
  const plug = await bed.add(new StubDevice(DEVICES.plug), 'Kettle');
  t.match(plug.model, /TS011F_plug_1|NAS-WR01B/);
  t.same(attrs(bed, 'switch.kettle'), { friendly_name: 'Kettle' });
  t.match(attrs(bed, 'sensor.kettle_power'), { device_class: 'power', unit_of_measurement: 'W', state_class: 'measurement' });
  t.match(attrs(bed, 'sensor.kettle_energy'), { device_class: 'energy', unit_of_measurement: 'kWh', state_class: 'total_increasing' });
  t.match(attrs(bed, 'sensor.kettle_voltage'), { device_class: 'voltage', unit_of_measurement: 'V' });
  t.match(attrs(bed, 'sensor.kettle_current'), { device_class: 'current', unit_of_measurement: 'A' });
  t.ok(bed.core.entities.get('switch.kettle_child_lock'), 'a settable binary is a switch, as zigbee2mqtt exposes it');
});

t.test('a Philips RWL021 dimmer has battery and action duration sensors, and no entity for its actions', async (t) => {
  const bed = zigbeeTestbed();
  const dimmer = await bed.add(new StubDevice(DEVICES.dimmer), 'Hall Dimmer');
  t.same(
    dimmer.entities.map((e) => e.id),
    ['sensor.hall_dimmer_battery', 'sensor.hall_dimmer_action_duration', 'sensor.hall_dimmer_linkquality', 'update.hall_dimmer'],
  );
  t.match(attrs(bed, 'sensor.hall_dimmer_action_duration'), { device_class: 'duration', unit_of_measurement: 's' });
});

t.test('a Danfoss eTRV0100 is a heating climate entity with its setpoint range, and a local temperature sensor', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(new StubDevice(DEVICES.trv), 'Bedroom Radiator');
  t.same(attrs(bed, 'climate.bedroom_radiator'), {
    hvac_modes: ['heat'],
    min_temp: 5,
    max_temp: 35,
    target_temp_step: 0.5,
    supported_features: 1 | 256,
    friendly_name: 'Bedroom Radiator',
  });
  t.equal(bed.core.states.get('climate.bedroom_radiator')?.state, 'unknown');
  t.match(attrs(bed, 'sensor.bedroom_radiator_local_temperature'), { device_class: 'temperature', unit_of_measurement: '°C' });
  t.match(attrs(bed, 'sensor.bedroom_radiator_battery'), { device_class: 'battery' });
});

t.test('a device the converters do not know still appears, with its link quality and one clear note', async (t) => {
  const log = memoryLogger();
  const bed = zigbeeTestbed(log);
  const unknown = await bed.add(new StubDevice(DEVICES.unknown), 'Mystery');
  t.equal(unknown.supported, false);
  t.equal(unknown.model, undefined);
  t.same(
    unknown.entities.map((e) => e.id),
    ['sensor.mystery_linkquality'],
  );
  t.match(bed.core.devices.byIdentifierOf(['zigbee', DEVICES.unknown.ieee]), { manufacturer: 'Nobody Ltd', model: 'XYZ-1000' });
  const notes = log.entries.filter((e) => e.level === 'warn' && /not supported/.test(e.msg));
  t.equal(notes.length, 1);
  t.match(notes[0]?.msg, /Mystery \(0x0000000000000bad, model XYZ-1000 by Nobody Ltd\) is not supported/);
});

t.test('two devices with the same name: the second one gets numbered entity ids', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(new StubDevice(DEVICES.weather), 'Sensor');
  await bed.add(new StubDevice({ ...DEVICES.weather, ieee: '0x00158d0001a2b3c5' }), 'Sensor');
  t.ok(bed.core.states.get('sensor.sensor_temperature'));
  t.ok(bed.core.states.get('sensor.sensor_temperature_2'));
  t.equal(bed.core.entities.get('sensor.sensor_temperature_2')?.uniqueId, '0x00158d0001a2b3c5_temperature');
});
