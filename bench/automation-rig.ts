/**
 * The house the automation benchmarks run on: 1,000 entities (temperature and power sensors, motion sensors,
 * plugs) and 500 automations over them as users write them (state triggers with from/to, numeric_state with
 * above/below, template triggers reading two or three entities, a fifth of each with `for:`, some conditions),
 * loaded through the configuration loader, on a core with every domain. The bare reference is the same core
 * and the same entities with no automation loaded.
 */
import { AutomationExtension } from '../src/automation/index.js';
import { automationIntegration } from '../src/automation/integration.js';
import { parseConfigText } from '../src/config/load.js';
import { Core } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { DOMAINS } from '../src/domains/index.js';
import { setupOf } from '../src/integration/setup.js';
import { SECTION_VALIDATORS } from '../src/sections.js';

export const COUNTS = { temp: 300, power: 200, motion: 300, plug: 200 } as const;
export const AUTOMATIONS = 500;

/** Entities no trigger reads: the upper part of each range (see automationsYaml). */
export const WATCHED = { temp: 150, power: 50, motion: 200, plug: 100 } as const;

const TEMP_ATTRS = { unit_of_measurement: '°C', device_class: 'temperature', state_class: 'measurement' };
const POWER_ATTRS = { unit_of_measurement: 'W', device_class: 'power', state_class: 'measurement' };
const MOTION_ATTRS = { device_class: 'motion' };
const PLUG_ATTRS = { device_class: 'outlet' };

export function setEntities(core: Core): void {
  for (let i = 0; i < COUNTS.temp; i++) core.states.set(`sensor.temp_${i}`, '20.0', TEMP_ATTRS);
  for (let i = 0; i < COUNTS.power; i++) core.states.set(`sensor.power_${i}`, '100', POWER_ATTRS);
  for (let i = 0; i < COUNTS.motion; i++) core.states.set(`binary_sensor.motion_${i}`, 'off', MOTION_ATTRS);
  for (let i = 0; i < COUNTS.plug; i++) core.states.set(`switch.plug_${i}`, 'off', PLUG_ATTRS);
}

export const attrsOf = { temp: TEMP_ATTRS, power: POWER_ATTRS, motion: MOTION_ATTRS, plug: PLUG_ATTRS };

/**
 * 500 automations: 200 on motion (from off to on; every fifth with for:), 150 on temperatures (above 25 or below
 * 15; every fifth with for:), 100 on plugs (on for 2 hours, or off with a condition), 50 template triggers
 * reading a power sensor and its plug. Each ends in an `event:` action, the cheapest thing a run can do.
 */
export function automationsYaml(): string {
  const out: string[] = ['automation:'];
  const action = (i: number) => `    actions:\n      - event: bench_fired\n        event_data: { n: ${i} }`;
  for (let i = 0; i < WATCHED.motion; i++) {
    const forLine = i % 5 === 0 ? '\n        for: { seconds: 30 }' : '';
    out.push(
      `  - id: motion_${i}\n    alias: Motion ${i}\n    triggers:\n      - trigger: state\n        entity_id: binary_sensor.motion_${i}\n        from: "off"\n        to: "on"${forLine}`,
    );
    if (i % 4 === 0)
      out.push(`    conditions:\n      - condition: state\n        entity_id: switch.plug_${i % COUNTS.plug}\n        state: "off"`);
    out.push(action(i));
  }
  for (let i = 0; i < WATCHED.temp; i++) {
    const bound = i % 3 === 0 ? 'below: 15' : 'above: 25';
    const forLine = i % 5 === 0 ? '\n        for: "00:05:00"' : '';
    out.push(
      `  - alias: Temperature ${i}\n    trigger:\n      - platform: numeric_state\n        entity_id: sensor.temp_${i}\n        ${bound}${forLine}`,
    );
    out.push(action(1000 + i));
  }
  for (let i = 0; i < WATCHED.plug; i++) {
    const on = i % 2 === 0;
    out.push(
      `  - alias: Plug ${i}\n    triggers:\n      - trigger: state\n        entity_id: switch.plug_${i}\n        to: "${on ? 'on' : 'off'}"${on ? '\n        for: { hours: 2 }' : ''}`,
    );
    if (!on) out.push(`    conditions: "{{ states('sensor.power_${i % COUNTS.power}') | float(0) < 5 }}"`);
    out.push(action(2000 + i));
  }
  for (let i = 0; i < WATCHED.power; i++) {
    const forLine = i % 5 === 0 ? '\n        for: { minutes: 1 }' : '';
    out.push(
      `  - alias: Power ${i}\n    triggers:\n      - trigger: template\n        value_template: "{{ states('sensor.power_${i}') | float(0) > 2000 and is_state('switch.plug_${i}', 'on') }}"${forLine}`,
    );
    out.push(action(3000 + i));
  }
  return `${out.join('\n')}\n`;
}

export interface Rig {
  readonly core: Core;
  /** Runs of `bench_fired` seen. */
  fired(): number;
  stop(): Promise<void>;
}

export async function startRig(withAutomations: boolean): Promise<Rig> {
  const core = new Core({ log: silentLogger, maxEntities: 2048 });
  for (const domain of DOMAINS) domain.registerServices(core);
  setEntities(core);
  let fired = 0;
  core.bus.on('bench', 'bench_fired', () => fired++);
  let extension: AutomationExtension | undefined;
  if (withAutomations) {
    const config = parseConfigText(automationsYaml(), null, SECTION_VALIDATORS);
    const definitions = setupOf(automationIntegration, config).config;
    if (definitions === undefined) throw new Error('the automations have problems');
    extension = new AutomationExtension(core, config.hub, silentLogger, { definitions });
    await extension.start();
    const loaded = [...core.states.entityIds()].filter((id) => id.startsWith('automation.')).length;
    if (loaded !== AUTOMATIONS) throw new Error(`expected ${AUTOMATIONS} automations, loaded ${loaded}`);
  }
  core.runState = 'RUNNING';
  return { core, fired: () => fired, stop: async () => extension?.stop() };
}
