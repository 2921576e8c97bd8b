import t from 'tap';
import { access, addExternalDefinition, Numeric, removeExternalDefinitions } from 'zigbee-herdsman-converters';
import type { Core } from '../../../src/core/core.js';
import type { HubEvent } from '../../../src/core/event-bus.js';
import { nextEvent, setup } from '../../automation/helpers.js';
import { DEVICES, StubDevice, zclMessage, zigbeeTestbed } from './devices-helpers.js';

/** Every state_changed of the given entities from now on, as [entity_id, state]. */
function recordStates(t: { teardown(fn: () => unknown): void }, core: Core): [string, string][] {
  const seen: [string, string][] = [];
  const off = core.bus.on('test', 'state_changed', (e) => {
    if (e.data.new_state) seen.push([e.data.entity_id, e.data.new_state.state]);
  });
  t.teardown(off);
  return seen;
}

function recordActions(t: { teardown(fn: () => unknown): void }, core: Core): HubEvent[] {
  const seen: HubEvent[] = [];
  const off = core.bus.on('test', 'zigbee_action', (e) => seen.push(e));
  t.teardown(off);
  return seen;
}

t.test('a temperature report of 2345 is 23.45 °C; one report per entity per message', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.weather);
  const weather = await bed.add(device, 'Living Room');
  const seen = recordStates(t, bed.core);
  weather.handleMessage(zclMessage(device, 'msTemperatureMeasurement', 'attributeReport', { measuredValue: 2345 }, 1, 87));
  await weather.settled();
  t.same(seen, [
    ['sensor.living_room_temperature', '23.45'],
    ['sensor.living_room_linkquality', '87'],
  ]);
  weather.handleMessage(zclMessage(device, 'msRelativeHumidity', 'attributeReport', { measuredValue: 5120 }, 1, 87));
  weather.handleMessage(zclMessage(device, 'msPressureMeasurement', 'attributeReport', { measuredValue: 1013 }, 1, 87));
  await weather.settled();
  t.equal(bed.core.states.get('sensor.living_room_humidity')?.state, '51.2');
  t.equal(bed.core.states.get('sensor.living_room_pressure')?.state, '1013');
  t.equal(seen.filter(([id]) => id === 'sensor.living_room_linkquality').length, 1, 'an unchanged link quality writes nothing');
});

t.test('a contact sensor: open and closed as the door device class has them', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.contact);
  const contact = await bed.add(device, 'Front Door');
  contact.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }));
  await contact.settled();
  t.equal(bed.core.states.get('binary_sensor.front_door_contact')?.state, 'on', 'onOff 1: the magnet is away, the door open');
  contact.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 0 }));
  await contact.settled();
  t.equal(bed.core.states.get('binary_sensor.front_door_contact')?.state, 'off');
});

t.test('a metering plug: on/off, power, voltage, current and energy from their clusters with the divisors', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.plug);
  const plug = await bed.add(device, 'Kettle');
  const seen = recordStates(t, bed.core);
  plug.handleMessage(
    zclMessage(device, 'haElectricalMeasurement', 'attributeReport', { activePower: 1850, rmsVoltage: 231, rmsCurrent: 8012 }),
  );
  await plug.settled();
  t.same(
    seen.filter(([id]) => id !== 'sensor.kettle_linkquality'),
    [
      ['sensor.kettle_power', '1850'],
      ['sensor.kettle_current', '8.01'],
      ['sensor.kettle_voltage', '231'],
    ],
  );
  plug.handleMessage(zclMessage(device, 'seMetering', 'attributeReport', { currentSummDelivered: 123456 }));
  plug.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }));
  await plug.settled();
  t.equal(bed.core.states.get('sensor.kettle_energy')?.state, '1234.56');
  t.equal(bed.core.states.get('switch.kettle')?.state, 'on');
});

t.test('a TRV: local temperature, setpoint and running state on the climate entity', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.trv);
  const trv = await bed.add(device, 'Bedroom Radiator');
  trv.handleMessage(zclMessage(device, 'hvacThermostat', 'attributeReport', { localTemp: 1950, occupiedHeatingSetpoint: 2100 }));
  await trv.settled();
  const s = bed.core.states.get('climate.bedroom_radiator');
  t.equal(s?.state, 'heat');
  t.match(s?.attributes, { current_temperature: 19.5, temperature: 21 });
  t.equal(bed.core.states.get('sensor.bedroom_radiator_local_temperature')?.state, '19.5');
});

t.test('RWL021 buttons fire zigbee_action events with the device and the action, never a state', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.dimmer);
  const dimmer = await bed.add(device, 'Hall Dimmer');
  const actions = recordActions(t, bed.core);
  const press = (button: number, type: number) =>
    dimmer.handleMessage(
      zclMessage(device, 'manuSpecificPhilips', 'commandHueNotification', { button, unknown1: 3145728, type, unknown2: 0, time: 0 }, 2),
    );
  press(1, 0);
  press(4, 1);
  press(4, 3);
  await dimmer.settled();
  t.same(
    actions.map((e) => e.data.action),
    ['on_press', 'off_hold', 'off_hold_release'],
  );
  t.match(actions[0]?.data, { device_ieee: DEVICES.dimmer.ieee, device_name: 'Hall Dimmer', action: 'on_press' });
  t.type(actions[1]?.data.action_duration, 'number', "the converter's extra fields come along");
  t.notOk(
    dimmer.entities.some((e) => e.state === 'on_press'),
    'no entity holds the action',
  );
});

t.test('a zigbee_action event triggers an automation', async (t) => {
  const { core } = await setup(
    t,
    `
automation:
  - id: dimmer_on
    triggers:
      - trigger: event
        event_type: zigbee_action
        event_data: { device_name: Hall Dimmer, action: on_press }
    actions:
      - event: hall_lights_on
`,
  );
  const bed = zigbeeTestbed(undefined, core);
  const device = new StubDevice(DEVICES.dimmer);
  const dimmer = await bed.add(device, 'Hall Dimmer');
  const ran = nextEvent(core, 'hall_lights_on');
  dimmer.handleMessage(
    zclMessage(device, 'manuSpecificPhilips', 'commandHueNotification', { button: 1, unknown1: 0, type: 0, unknown2: 0, time: 0 }, 2),
  );
  const event = await ran;
  t.equal(event.event_type, 'hall_lights_on');
});

t.test('an unsupported device reports its link quality; a converter that throws is logged and the rest goes on', async (t) => {
  const bed = zigbeeTestbed();
  const device = new StubDevice(DEVICES.unknown);
  const unknown = await bed.add(device, 'Mystery');
  unknown.handleMessage(zclMessage(device, 'genOnOff', 'attributeReport', { onOff: 1 }, 1, 42));
  await unknown.settled();
  t.equal(bed.core.states.get('sensor.mystery_linkquality')?.state, '42');
  const dimmer = new StubDevice(DEVICES.dimmer);
  const entities = await bed.add(dimmer, 'Dimmer');
  // Endpoint 9 does not exist: the Philips converter fails on it.
  entities.handleMessage(zclMessage(dimmer, 'manuSpecificPhilips', 'commandHueNotification', { button: 1, type: 0 }, 9, 33));
  await entities.settled();
  t.equal(bed.core.states.get('sensor.dimmer_linkquality')?.state, '33');
});

t.test("a converter that learns the device's exposes changed: new entities appear, vanished ones go", async (t) => {
  // An external definition (as zigbee2mqtt users add) whose exposes depend on what the device said.
  let withPower = false;
  addExternalDefinition({
    zigbeeModel: ['hearth.dynamic'],
    model: 'DYN-1',
    vendor: 'Hearth Test',
    description: 'Exposes that follow the device',
    externalConverterName: 'hearth-dynamic.mjs',
    fromZigbee: [
      {
        cluster: 'genBasic',
        type: ['attributeReport'],
        convert: (_model, msg, _publish, _options, meta) => {
          withPower = (msg.data as { appVersion?: number }).appVersion === 2;
          meta.deviceExposesChanged();
          return { temperature: 20 };
        },
      },
    ],
    toZigbee: [],
    exposes: () => {
      const list = [new Numeric('temperature', access.STATE).withUnit('°C')];
      if (withPower) list.push(new Numeric('power', access.STATE).withUnit('W'));
      return list;
    },
  });
  t.teardown(() => removeExternalDefinitions('hearth-dynamic.mjs'));
  const bed = zigbeeTestbed();
  const device = new StubDevice({ ieee: '0x00000000000d1a01', modelID: 'hearth.dynamic', manufacturerName: 'Hearth' });
  const dynamic = await bed.add(device, 'Meter');
  t.same(
    dynamic.entities.map((e) => e.id),
    ['sensor.meter_temperature', 'sensor.meter_linkquality'],
  );
  const added = nextEvent(bed.core, 'state_changed', (e) => e.data.entity_id === 'sensor.meter_power');
  dynamic.handleMessage(zclMessage(device, 'genBasic', 'attributeReport', { appVersion: 2 }));
  t.match((await added).data.new_state?.attributes, { device_class: 'power', unit_of_measurement: 'W' });
  t.equal(bed.core.states.get('sensor.meter_temperature')?.state, '20');
  const removed = nextEvent(bed.core, 'state_changed', (e) => e.data.entity_id === 'sensor.meter_power' && e.data.new_state === null);
  dynamic.handleMessage(zclMessage(device, 'genBasic', 'attributeReport', { appVersion: 1 }));
  await removed;
  t.same(
    dynamic.entities.map((e) => e.id),
    ['sensor.meter_temperature', 'sensor.meter_linkquality'],
  );
});
