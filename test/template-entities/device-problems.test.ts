import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { runCli } from '../cli/cli-process.js';
import { startTestHub } from '../helpers/hub.js';

/** Template covers, lights and fans: check-config names each problem with its file and line; template.reload reloads them. */

async function tempConfig(t: { teardown(fn: () => unknown): void }, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-tpl-device-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(file, text);
  return file;
}

t.test('check-config: each problem of a template cover, light or fan with its line and what is allowed', async (t) => {
  const text = [
    'hub: {name: T, time_zone: UTC}', //                   1
    'template:', //                                        2
    '  - cover:', //                                       3
    '      - name: Garage', //                             4
    '        state: "{{ states(\'sensor.x\') }"', //       5
    '        device_class: spaceship', //                  6
    '        close_cover: []', //                          7
    '    light:', //                                       8
    '      - name: Lamp', //                               9
    '        turn_on: []', //                             10
    '        colour: red', //                             11
    '    fan:', //                                        12
    '      - name: Fan', //                               13
    '        turn_on: []', //                             14
    '        turn_off: []', //                            15
    '        speed_count: many', //                       16
    'light:', //                                          17
    '  - platform: template', //                          18
    '    lights:', //                                     19
    '      porch:', //                                    20
    '        value_template: "{{ 1 }}"', //               21
    '        turn_on: []', //                             22
    '        turn_off: []', //                            23
    '        hs_template: "(1, 2)"', //                   24
    '        color_template: "(1, 2)"', //                25
    'cover:', //                                          26
    '  - platform: template', //                          27
    '    covers:', //                                     28
    '      gate:', //                                     29
    '        value_template: "{{ true }}"', //            30
    '        speeds: [low]', //                           31
    '',
  ].join('\n');
  const file = await tempConfig(t, text);
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 1, r.stdout + r.stderr);
  const out = r.stdout.split(`${file}:`).join('');
  const expected: RegExp[] = [
    /^5:\d+: template\[0\]\.cover\[0\]\.state: .*/m,
    /^6:\d+: template\[0\]\.cover\[0\]\.device_class: "spaceship" is not allowed: expected one of awning, .*garage/m,
    /template\[0\]\.cover\[0\]\.open_cover: is required with the other one/,
    /^9:\d+: template\[0\]\.light\[0\]\.turn_off: is required: expected the actions that turn the light off/m,
    /^11:\d+: template\[0\]\.light\[0\]\.colour: unknown option; allowed: .*set_level/m,
    /^16:\d+: template\[0\]\.fan\[0\]\.speed_count: "many" is not allowed/m,
    /^25:\d+: light\[0\]\.lights\.porch\.color_template: give either hs_template or color_template, not both/m,
    /^31:\d+: cover\[0\]\.covers\.gate\.speeds: unknown option/m,
    /cover\[0\]\.covers\.gate\.open_cover: is required: expected open_cover and close_cover, or set_cover_position/,
  ];
  for (const e of expected) t.match(out, e, String(e));
  t.notMatch(out, /nunjucks|Template render error/, 'no engine internals');
});

t.test('valid covers, lights and fans in both syntaxes pass check-config', async (t) => {
  const text = `hub: {name: T, time_zone: UTC}
template:
  - cover:
      - name: Garage
        state: "{{ is_state('binary_sensor.door', 'on') }}"
        open_cover: {action: script.open}
        close_cover: {action: script.close}
    light:
      - name: Lamp
        level: "{{ 3 }}"
        turn_on: []
        turn_off: []
        set_level: []
    fan:
      - name: Fan
        turn_on: []
        turn_off: []
cover:
  - platform: template
    covers:
      gate:
        position_template: "{{ 50 }}"
        set_cover_position: []
fan:
  - platform: template
    fans:
      attic:
        value_template: "{{ 'on' }}"
        turn_on: []
        turn_off: []
`;
  const r = await runCli(['check-config', '--config', await tempConfig(t, text)]);
  t.equal(r.code, 0, r.stdout + r.stderr);
});

t.test('template.reload reloads covers, lights and fans of both syntaxes; a broken one is left out', async (t) => {
  const yaml = (extra: string) => `hub: {name: T, time_zone: UTC}
template:
  - cover:
      - name: C1
        set_cover_position: []${extra}
light:
  - platform: template
    lights:
      l1:
        turn_on: []
        turn_off: []
`;
  const file = await tempConfig(t, yaml(''));
  const { hub, wsUrl, token } = await startTestHub(t, { configFile: file });
  const core = hub.core;
  t.ok(core.states.get('cover.c1'));
  t.ok(core.states.get('light.l1'));
  t.equal(core.states.get('fan.f2'), undefined);
  await writeFile(
    file,
    yaml(`
    fan:
      - name: F2
        turn_on: []
        turn_off: []
      - name: Broken
        turn_on: []`),
  );
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.ws.close());
  const reply = await ws.command('call_service', { domain: 'template', service: 'reload', service_data: {} });
  t.equal(reply.success, true);
  t.ok(core.states.get('cover.c1'), 'the cover is back');
  t.ok(core.states.get('light.l1'), 'the legacy light is back');
  t.ok(core.states.get('fan.f2'), 'the new fan is there');
  t.equal(core.states.get('fan.broken'), undefined, 'the broken fan is left out');
  t.match(core.notifications.get('template_reload_invalid_config')?.message, /template\[0\]\.fan\[1\]/);
});
