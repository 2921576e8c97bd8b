import type { JsonValue } from '../core/json.js';
import type { State } from '../core/state.js';

const pair = (v: JsonValue | undefined): readonly number[] | undefined =>
  Array.isArray(v) && (v as JsonValue[]).every((x) => typeof x === 'number') ? (v as number[]) : undefined;

/** A light's state as the JSON schema has it: `{"state":"ON","brightness":..,"color_mode":..,"color":{..}}`. */
function lightPayload(s: State): string {
  const a = s.attributes;
  const out: Record<string, JsonValue> = { state: s.state === 'on' ? 'ON' : 'OFF' };
  if (s.state === 'on') {
    const mode = typeof a.color_mode === 'string' ? a.color_mode : undefined;
    if (mode) out.color_mode = mode;
    if (typeof a.brightness === 'number') out.brightness = a.brightness;
    if (typeof a.color_temp === 'number' && mode === 'color_temp') out.color_temp = a.color_temp;
    const hs = pair(a.hs_color);
    const xy = pair(a.xy_color);
    const rgb = pair(a.rgb_color);
    if (mode === 'hs' && hs) out.color = { h: hs[0] ?? 0, s: hs[1] ?? 0 };
    else if (mode === 'xy' && xy) out.color = { x: xy[0] ?? 0, y: xy[1] ?? 0 };
    else if (mode === 'rgb' && rgb) out.color = { r: rgb[0] ?? 0, g: rgb[1] ?? 0, b: rgb[2] ?? 0 };
    if (typeof a.effect === 'string') out.effect = a.effect;
  }
  return JSON.stringify(out);
}

/** What an entity's state topic carries: the state string, or for a light the JSON schema's object. */
export function statePayload(domain: string, s: State): string {
  return domain === 'light' ? lightPayload(s) : s.state;
}
