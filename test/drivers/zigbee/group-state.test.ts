import t from 'tap';
import { groupLightModel, reduceOnOff, unionCapabilities } from '../../../drivers/zigbee/group-state.js';
import { groupNameProblem } from '../../../drivers/zigbee/groups.js';
import type { State } from '../../../src/core/state.js';
import { LightFeature } from '../../../src/domains/light.js';

// The group entity's reductions as Home Assistant's light/switch groups make them (tests/components/group/test_light.py
// cases as tables), and zigbee2mqtt's friendly-name rules (test/settings.test.ts validateFriendlyName cases).

const s = (state: string, attributes: Record<string, unknown> = {}): State => ({ state, attributes }) as unknown as State;

t.test('on/off: any member on; unavailable only when every member is; unknown while none has said', async (t) => {
  const cases: Array<[(State | undefined)[], ReturnType<typeof reduceOnOff>]> = [
    [[s('on'), s('off')], { kind: 'known', on: true }],
    [[s('off'), s('off')], { kind: 'known', on: false }],
    [[s('off'), s('unavailable')], { kind: 'known', on: false }],
    [[s('on'), s('unknown')], { kind: 'known', on: true }],
    [[s('unknown'), s('unknown')], { kind: 'unknown' }],
    [[s('unavailable'), s('unavailable')], { kind: 'unavailable' }],
    [[undefined, s('unavailable')], { kind: 'unavailable' }],
    [[], { kind: 'unavailable' }],
  ];
  for (const [states, want] of cases) t.same(reduceOnOff(states), want, JSON.stringify(states.map((x) => x?.state)));
});

t.test('light attributes: means of the members that are on, the most common colour mode', async (t) => {
  const caps = unionCapabilities([
    { supportedColorModes: ['color_temp'], minColorTempKelvin: 2202, maxColorTempKelvin: 4000, supportedFeatures: LightFeature.TRANSITION },
    {
      supportedColorModes: ['xy', 'color_temp'],
      minColorTempKelvin: 2000,
      maxColorTempKelvin: 6500,
      supportedFeatures: LightFeature.FLASH,
    },
  ]);
  t.same(caps, {
    supportedColorModes: ['color_temp', 'xy'],
    minColorTempKelvin: 2000,
    maxColorTempKelvin: 6500,
    effectList: undefined,
    supportedFeatures: LightFeature.TRANSITION | LightFeature.FLASH,
  });
  const cases: Array<[State[], Record<string, unknown>]> = [
    [
      [
        s('on', { brightness: 255, color_mode: 'color_temp', color_temp_kelvin: 3000 }),
        s('on', { brightness: 100, color_mode: 'color_temp', color_temp_kelvin: 4000 }),
      ],
      { on: true, brightness: 178, colorMode: 'color_temp', colorTempKelvin: 3500 },
    ],
    [
      [
        s('on', { brightness: 200, color_mode: 'xy', xy_color: [0.3, 0.3] }),
        s('off', { brightness: null }),
        s('on', { brightness: 100, color_mode: 'xy', xy_color: [0.5, 0.4] }),
      ],
      { on: true, brightness: 150, colorMode: 'xy', xy: [0.4, 0.35] },
    ],
    [[s('on', { color_mode: 'onoff' })], { on: true, colorMode: 'color_temp', brightness: undefined }],
  ];
  for (const [states, want] of cases) t.match(groupLightModel(states, caps, true), want, JSON.stringify(want));
  t.same(groupLightModel([s('off')], caps, false), { on: false, colorMode: 'color_temp' });
  t.same(unionCapabilities([{ supportedColorModes: ['onoff'] }, { supportedColorModes: ['brightness'] }]).supportedColorModes, [
    'brightness',
  ]);
  t.same(unionCapabilities([{ supportedColorModes: ['onoff'] }]).supportedColorModes, ['onoff']);
});

t.test("friendly names: zigbee2mqtt's rules", async (t) => {
  const cases: Array<[string, RegExp | undefined]> = [
    ['Living room', undefined],
    ['kitchen/ceiling', undefined],
    ['', /at least 1 char/],
    ['/lights', /end or start with \//],
    ['lights/', /end or start with \//],
    ['lights/1', /cannot end with a "\/DIGIT"/],
    ['a+b', /MQTT wildcard/],
    ['a#b', /MQTT wildcard/],
    ['tab\there', /control char/],
    ['42', /must not be a number/],
    ['x'.repeat(101), /at most 100/],
  ];
  for (const [name, want] of cases) {
    const problem = groupNameProblem(name);
    if (want === undefined) t.equal(problem, undefined, name);
    else t.match(problem, want, name);
  }
});
