import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { type RenderOptions, TemplateEngine, type TemplateLimits } from '../../src/template/index.js';

/** 2026-01-15 12:00:00 UTC: 13:00 in Amsterdam (CET, +01:00). */
export const NOON_UTC_US = Date.UTC(2026, 0, 15, 12, 0, 0) * 1000;

export interface EngineFixture {
  readonly core: Core;
  readonly clock: ManualClock;
  readonly engine: TemplateEngine;
  /** Renders and returns the text, or `ERR <message>`. */
  render(source: string, options?: RenderOptions): string;
}

/** An engine over a bare core with a few states, a manual clock at NOON_UTC_US and the Amsterdam time zone. */
export function engineFixture(limits: Partial<TemplateLimits> = {}): EngineFixture {
  const clock = new ManualClock(NOON_UTC_US);
  const core = new Core({ log: silentLogger, clock });
  core.states.set('sensor.outside', '21.5', { unit_of_measurement: '°C', friendly_name: 'Outside' });
  core.states.set('sensor.humidity', 'unavailable', { friendly_name: 'Humidity' });
  core.states.set('light.kitchen', 'on', { brightness: 180, friendly_name: 'Kitchen' });
  core.states.set('light.hallway', 'off', { friendly_name: 'Hallway' });
  core.states.set('switch.coffee', 'off', {});
  core.states.set('group.lights', 'on', { entity_id: ['light.kitchen', 'light.hallway'] });
  const engine = new TemplateEngine({ core, timeZone: 'Europe/Amsterdam', limits });
  return {
    core,
    clock,
    engine,
    render(source, options = {}) {
      const r = engine.tryRender(source, options);
      return r.ok ? r.text : `ERR ${r.error.message}`;
    },
  };
}
