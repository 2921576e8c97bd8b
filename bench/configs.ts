/**
 * Configurations with N simulated entities for the REST, memory and startup benchmarks: a mix like a real
 * install (mostly sensors, some lights, switches and binary sensors), each sensor reporting about once a
 * minute and a binary sensor every few minutes, so the hub carries a realistic trickle of state changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The light the REST benchmark reads and toggles. */
export const BENCH_LIGHT = 'light.bench_light_0';

export function entitiesYaml(count: number, hubName = `Bench ${count}`): string {
  const lines = ['hub:', `  name: ${hubName}`, '  time_zone: Europe/Amsterdam', 'virtual:'];
  const lights = Math.max(1, Math.round(count * 0.05));
  const switches = Math.round(count * 0.05);
  const binary = Math.round(count * 0.1);
  const sensors = count - lights - switches - binary;
  for (let i = 0; i < lights; i++)
    lines.push(`  - {platform: light, id: bench_light_${i}, name: Bench light ${i}, color_modes: [color_temp, hs]}`);
  for (let i = 0; i < switches; i++) lines.push(`  - {platform: switch, id: bench_switch_${i}, name: Bench switch ${i}}`);
  for (let i = 0; i < binary; i++)
    lines.push(
      `  - {platform: binary_sensor, id: bench_motion_${i}, name: Bench motion ${i}, device_class: motion, mean_interval: 300, on_duration: 20}`,
    );
  const classes = ['temperature', 'humidity', 'power', 'illuminance'];
  for (let i = 0; i < sensors; i++) {
    const dc = classes[i % classes.length] as string;
    // Intervals spread over 45-75 s so the reports do not arrive in lockstep.
    lines.push(`  - {platform: sensor, id: bench_${dc}_${i}, name: Bench ${dc} ${i}, device_class: ${dc}, interval: ${45 + (i % 31)}}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the configuration into `dir` and returns its path. */
export function writeEntitiesConfig(dir: string, count: number): string {
  const path = join(dir, `entities-${count}.yaml`);
  writeFileSync(path, entitiesYaml(count));
  return path;
}
