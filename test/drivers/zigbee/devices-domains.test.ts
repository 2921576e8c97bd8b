import t from 'tap';
import type { Core } from '../../../src/core/core.js';
import { memoryLogger } from '../../helpers/logger.js';
import { StubDevice, zclMessage, zigbeeTestbed } from './devices-helpers.js';

// The other domains and device classes, each through a real definition: multi-endpoint switches, colour lights,
// covers, locks, fans, and the binary sensors and air-quality sensors the issue names.

let next = 0x100;
function stub(modelID: string, manufacturerName: string, endpoints?: number[]): StubDevice {
  next += 1;
  return new StubDevice({ ieee: `0x${next.toString(16).padStart(16, '0')}`, modelID, manufacturerName, endpoints });
}

function call(core: Core, domain: string, service: string, data: Record<string, unknown>): Promise<unknown> {
  return core.services.call(domain, service, data as never, { context: core.newContext() });
}

const sent = (d: StubDevice) => d.sent.map((s) => [s.endpoint, s.cluster, s.command, s.payload]);

t.test('a two-gang switch (Aqara QBKG03LM): one switch per endpoint, reports and commands on the right one', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('lumi.ctrl_neutral2', 'LUMI', [1, 2, 3, 4, 5, 6]);
  const wall = await bed.add(device, 'Hall Switch');
  t.same(
    wall.entities.filter((e) => e.domain === 'switch').map((e) => [e.id, e.uniqueId, e.attributes?.friendly_name]),
    [
      ['switch.hall_switch_left', `${device.ieeeAddr}_switch_left`, 'Hall Switch Left'],
      ['switch.hall_switch_right', `${device.ieeeAddr}_switch_right`, 'Hall Switch Right'],
    ],
  );
  wall.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }, 3));
  await wall.settled();
  t.equal(bed.core.states.get('switch.hall_switch_right')?.state, 'on', 'endpoint 3 is the right gang');
  t.equal(bed.core.states.get('switch.hall_switch_left')?.state, 'unknown');
  await call(bed.core, 'switch', 'turn_on', { entity_id: 'switch.hall_switch_left' });
  t.same(sent(device), [[2, 'genOnOff', 'on', {}]]);
  t.equal(bed.core.states.get('switch.hall_switch_left')?.state, 'on');
});

t.test('a colour light (Hue LCT015): xy and colour temperature, a reported colour, hs asked as xy, an effect', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('LCT015', 'Philips');
  const hue = await bed.add(device, 'Hue Go');
  t.match(bed.core.states.get('light.hue_go')?.attributes, {
    supported_color_modes: ['xy', 'color_temp'],
    min_mireds: 153,
    max_mireds: 500,
    effect_list: ['blink', 'breathe', 'okay', 'channel_change', 'candle'],
  });
  hue.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }));
  hue.handleMessage(zclMessage(device, 'lightingColorCtrl', 'attributeReport', { currentX: 30000, currentY: 20000, colorMode: 1 }));
  await hue.settled();
  t.match(bed.core.states.get('light.hue_go')?.attributes, { color_mode: 'xy', xy_color: [0.4578, 0.3052] });
  await call(bed.core, 'light', 'turn_on', { entity_id: 'light.hue_go', hs_color: [120, 100] });
  t.match(sent(device), [[1, 'lightingColorCtrl', 'moveToColor', { colorx: 11272, colory: 48955 }]], 'the colour only: the light is on');
  device.sent.length = 0;
  await call(bed.core, 'light', 'turn_on', { entity_id: 'light.hue_go', effect: 'candle' });
  t.match(sent(device).at(-1), [1, 'manuSpecificPhilips2', 'multiColor']);
});

t.test('a roller blind (IKEA KADRILJ): position both ways, close', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('KADRILJ roller blind', 'IKEA of Sweden');
  const blind = await bed.add(device, 'Bedroom Blind');
  t.match(bed.core.states.get('cover.bedroom_blind')?.attributes, { supported_features: 1 | 2 | 4 | 8 });
  blind.handleMessage(zclMessage(device, 'closuresWindowCovering', 'attributeReport', { currentPositionLiftPercentage: 30 }));
  await blind.settled();
  const s = bed.core.states.get('cover.bedroom_blind');
  t.equal(s?.state, 'open');
  t.equal(s?.attributes.current_position, 70, "IKEA's lift percentage is how far it is closed");
  await call(bed.core, 'cover', 'set_cover_position', { entity_id: 'cover.bedroom_blind', position: 80 });
  await call(bed.core, 'cover', 'close_cover', { entity_id: 'cover.bedroom_blind' });
  t.same(sent(device), [
    [1, 'closuresWindowCovering', 'goToLiftPercentage', { percentageliftvalue: 20 }],
    [1, 'closuresWindowCovering', 'downClose', {}],
  ]);
  blind.handleMessage(zclMessage(device, 'closuresWindowCovering', 'attributeReport', { currentPositionLiftPercentage: 100 }));
  await blind.settled();
  t.equal(bed.core.states.get('cover.bedroom_blind')?.state, 'closed');
});

t.test('a lock (Yale YRD226): state from the lock state attribute, unlock as a door lock command', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('YRD226 TSDB', 'Yale');
  const lock = await bed.add(device, 'Front Door Lock');
  lock.handleMessage(zclMessage(device, 'closuresDoorLock', 'attributeReport', { lockState: 1 }));
  await lock.settled();
  t.equal(bed.core.states.get('lock.front_door_lock')?.state, 'locked');
  await call(bed.core, 'lock', 'unlock', { entity_id: 'lock.front_door_lock' });
  t.match(sent(device), [[1, 'closuresDoorLock', 'unlockDoor']]);
  t.equal(bed.core.states.get('lock.front_door_lock')?.state, 'locked', 'until the lock reports it');
  lock.handleMessage(zclMessage(device, 'closuresDoorLock', 'attributeReport', { lockState: 2 }));
  await lock.settled();
  t.equal(bed.core.states.get('lock.front_door_lock')?.state, 'unlocked');
  t.match(bed.core.states.get('binary_sensor.front_door_lock_battery_low')?.attributes, { device_class: 'battery' });
});

t.test('a fan (Hampton Bay 99432): four speeds (ZCL `on` the fastest) and the `smart` preset, as zigbee2mqtt maps it', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('HDC52EastwindFan', 'King Of Fans,  Inc.');
  const fan = await bed.add(device, 'Ceiling Fan');
  fan.handleMessage(zclMessage(device, 'hvacFanCtrl', 'attributeReport', { fanMode: 2 }));
  await fan.settled();
  t.match(bed.core.states.get('fan.ceiling_fan'), {
    state: 'on',
    attributes: { percentage: 50, percentage_step: 25, preset_modes: ['smart'], preset_mode: null },
  });
  await call(bed.core, 'fan', 'set_percentage', { entity_id: 'fan.ceiling_fan', percentage: 100 });
  await call(bed.core, 'fan', 'turn_off', { entity_id: 'fan.ceiling_fan' });
  t.same(sent(device), [
    [1, 'hvacFanCtrl', 'write', { fanMode: 4 }],
    [1, 'hvacFanCtrl', 'write', { fanMode: 0 }],
  ]);
  t.match(bed.core.states.get('fan.ceiling_fan'), { state: 'off', attributes: { percentage: 0 } });
});

t.test('binary sensors with their device classes: occupancy, moisture, smoke, vibration, tamper, battery_low', async (t) => {
  const bed = zigbeeTestbed();
  const cases: [string, string, string, Record<string, string>][] = [
    ['lumi.sensor_motion.aq2', 'LUMI', 'Motion', { occupancy: 'occupancy' }],
    ['lumi.sensor_wleak.aq1', 'LUMI', 'Sink', { water_leak: 'moisture', battery_low: 'battery' }],
    ['SmokeSensor-N', 'HEIMAN', 'Smoke', { smoke: 'smoke', battery_low: 'battery' }],
    ['lumi.vibration.aq1', 'LUMI', 'Window', { vibration: 'vibration' }],
    ['PIRSensor-N', 'HEIMAN', 'Porch', { occupancy: 'occupancy', tamper: 'tamper' }],
  ];
  for (const [model, vendor, name, classes] of cases) {
    await bed.add(stub(model, vendor), name);
    for (const [property, deviceClass] of Object.entries(classes)) {
      const id = `binary_sensor.${name.toLowerCase()}_${property}`;
      t.equal(bed.core.states.get(id)?.attributes.device_class, deviceClass, id);
    }
  }
});

t.test('a water leak alarm and a motion report become on', async (t) => {
  const bed = zigbeeTestbed();
  const leak = stub('lumi.sensor_wleak.aq1', 'LUMI');
  const sink = await bed.add(leak, 'Sink');
  sink.handleMessage(zclMessage(leak, 'ssIasZone', 'commandStatusChangeNotification', { zonestatus: 1, extendedstatus: 0 }));
  await sink.settled();
  t.equal(bed.core.states.get('binary_sensor.sink_water_leak')?.state, 'on');
  t.equal(bed.core.states.get('binary_sensor.sink_battery_low')?.state, 'off');
  const pir = stub('lumi.sensor_motion.aq2', 'LUMI');
  const motion = await bed.add(pir, 'Hall Motion');
  motion.handleMessage(zclMessage(pir, 'msOccupancySensing', 'attributeReport', { occupancy: 1 }));
  motion.handleMessage(zclMessage(pir, 'msIlluminanceMeasurement', 'attributeReport', { measuredValue: 120 }));
  await motion.settled();
  t.equal(bed.core.states.get('binary_sensor.hall_motion_occupancy')?.state, 'on');
  t.match(bed.core.states.get('sensor.hall_motion_illuminance'), {
    state: '120',
    attributes: { device_class: 'illuminance', unit_of_measurement: 'lx' },
  });
});

t.test('air quality: CO2, VOC (ppb: the parts class), PM2.5 with classes and units', async (t) => {
  const bed = zigbeeTestbed();
  await bed.add(stub('TS0601', '_TZE200_dwcarsat'), 'Air');
  const expect: Record<string, [string, string]> = {
    'sensor.air_co2': ['carbon_dioxide', 'ppm'],
    'sensor.air_voc': ['volatile_organic_compounds_parts', 'ppb'],
    'sensor.air_pm25': ['pm25', 'µg/m³'],
  };
  for (const [id, [deviceClass, unit]] of Object.entries(expect)) {
    t.match(bed.core.states.get(id)?.attributes, { device_class: deviceClass, unit_of_measurement: unit, state_class: 'measurement' }, id);
  }
});

t.test('a two-channel dimmer (Tuya TS110E): a light per endpoint, each following its own endpoint', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('TS110E', '_TZ3210_pagajpog', [1, 2]);
  const dimmer = await bed.add(device, 'Stairs');
  t.same(
    dimmer.entities.filter((e) => e.domain === 'light').map((e) => [e.id, e.attributes?.friendly_name]),
    [
      ['light.stairs_l1', 'Stairs L1'],
      ['light.stairs_l2', 'Stairs L2'],
    ],
  );
  dimmer.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }, 2));
  await dimmer.settled();
  t.equal(bed.core.states.get('light.stairs_l2')?.state, 'on');
  t.equal(bed.core.states.get('light.stairs_l1')?.state, 'unknown');
  await call(bed.core, 'light', 'turn_off', { entity_id: 'light.stairs_l2' });
  t.same(sent(device), [[2, 'genOnOff', 'off', {}]]);
  t.equal(bed.core.states.get('light.stairs_l2')?.state, 'off');
});

t.test('a key no converter takes is skipped with a warning; a message of nothing but such keys fails', async (t) => {
  const log = memoryLogger();
  const bed = zigbeeTestbed(log);
  const device = stub('lumi.ctrl_neutral2', 'LUMI', [1, 2, 3]);
  const wall = await bed.add(device, 'Wall');
  await wall.send({ state: 'ON', sparkle: true }, 'left');
  t.same(sent(device), [[2, 'genOnOff', 'on', {}]]);
  t.ok(log.entries.some((e) => e.level === 'warn' && /Wall \(QBKG03LM\) takes no sparkle; skipped/.test(e.msg)));
  await t.rejects(wall.send({ sparkle: true }, 'left'), {
    kind: 'hub_error',
    message: /Wall .* did not accept sparkle: QBKG03LM has no converter for it/,
  });
  const unknown = await bed.add(stub('XYZ-1', 'Nobody'), 'Mystery');
  await t.rejects(unknown.send({ state: 'ON' }, undefined), {
    kind: 'not_supported',
    message: /Mystery .* not supported by the converters/,
  });
});

t.test('a siren (Heiman HS2WD-E): siren.turn_on with tone and duration as zigbee2mqtt sends them, optimistic state', async (t) => {
  const bed = zigbeeTestbed();
  const device = stub('WarningDevice', 'HEIMAN');
  await bed.add(device, 'Hall Siren');
  // zigbee2mqtt's test for this model: available_tones [emergency], support_duration, no volume.
  t.match(bed.core.states.get('siren.hall_siren'), {
    state: 'unknown',
    attributes: { available_tones: ['emergency'], supported_features: 1 | 2 | 4 | 16, friendly_name: 'Hall Siren' },
  });
  t.equal(bed.core.entities.find('siren.hall_siren')?.uniqueId, `${device.ieeeAddr}_siren`);
  await call(bed.core, 'siren', 'turn_on', { entity_id: 'siren.hall_siren', tone: 'emergency', volume_level: 0.9, duration: 30 });
  t.equal(bed.core.states.get('siren.hall_siren')?.state, 'on');
  await call(bed.core, 'siren', 'turn_off', { entity_id: 'siren.hall_siren' });
  t.equal(bed.core.states.get('siren.hall_siren')?.state, 'off');
  await call(bed.core, 'siren', 'toggle', { entity_id: 'siren.hall_siren' });
  t.equal(bed.core.states.get('siren.hall_siren')?.state, 'on');
  // emergency (3) << 4, strobe on << 2, level medium (1; the volume is dropped: not supported); stop (0) the same way.
  t.same(sent(device), [
    [1, 'ssIasWd', 'startWarning', { startwarninginfo: 0x35, warningduration: 30, strobedutycycle: 0, strobelevel: 1 }],
    [1, 'ssIasWd', 'startWarning', { startwarninginfo: 0x05, warningduration: 10, strobedutycycle: 0, strobelevel: 1 }],
    [1, 'ssIasWd', 'startWarning', { startwarninginfo: 0x35, warningduration: 10, strobedutycycle: 0, strobelevel: 1 }],
  ]);
  await t.rejects(call(bed.core, 'siren', 'turn_on', { entity_id: 'siren.hall_siren', tone: 'fire' }), {
    message: /Invalid tone specified for entity siren.hall_siren: fire/,
  });
  t.equal(device.sent.length, 3, 'a refused tone sends nothing');
});
