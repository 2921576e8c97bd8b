/**
 * Template render and compile speed, for comparing two checkouts of hearth (before and after a change to
 * src/template): `npx tsx bench/template-render.ts [root]` loads src/template from `root` (default: this
 * checkout) and measures, over 1,000 sensors, in this process:
 * - render: the 100 templates of bench/automation-templates.ts, each rendered from the cache, CPU µs per render;
 * - compile: the same 100 templates plus 20 longer ones (loops, macros, filters), compiled afresh, CPU µs per template.
 * Best of 7 rounds. Prints one JSON line; run both checkouts alternately and compare the ratios.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { templates } from './automation-templates.js';

const root = resolve(process.argv[2] ?? '.');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(root, path)).href)) as T;

interface EngineLike {
  renderText(source: string, name: string, info: unknown, options?: object): string;
}

const LONG = [
  '{% set ns = namespace(total=0) %}{% for s in states.sensor %}{% if s.state | float(0) > 20 %}{% set ns.total = ns.total + 1 %}{% endif %}{% endfor %}{{ ns.total }}',
  "{% macro fmt(x) %}{{ '%.1f' | format(x | float(0)) }}{% endmacro %}{% for i in range(10) %}{{ fmt(states('sensor.temp_' ~ i)) }} {% endfor %}",
  "{{ states.sensor | selectattr('state', 'is_number') | map(attribute='state') | map('float') | select('>', 20) | list | length }}",
  "{% if is_state('sensor.temp_1', '21.0') and states('sensor.temp_2') | float(0) > 10 %}yes{% elif states('sensor.temp_3') == 'x' %}maybe{% else %}no{% endif %}",
];

async function main(): Promise<void> {
  const { Core } = await load<typeof import('../src/core/core.js')>('src/core/core.ts');
  const { silentLogger } = await load<typeof import('../src/core/log.js')>('src/core/log.ts');
  const { TemplateEngine, RenderInfo } = await load<typeof import('../src/template/index.js')>('src/template/index.ts');
  const core = new Core({ log: silentLogger });
  for (let i = 0; i < 1000; i++) core.states.set(`sensor.temp_${i}`, (15 + (i % 20)).toFixed(1), { unit_of_measurement: '°C' });
  const sources = templates();
  const compileSet = [...sources, ...Array.from({ length: 20 }, (_, i) => `${LONG[i % LONG.length]}{# ${i} #}`)];
  const limits = { renderMs: 10_000, compileMs: 10_000 };
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  let bestRender = Number.POSITIVE_INFINITY;
  let bestCompile = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const engine = new TemplateEngine({ core, budget: false, limits }) as unknown as EngineLike;
    let started = cpu();
    for (const s of compileSet) engine.renderText(s, 'bench', new RenderInfo());
    bestCompile = Math.min(bestCompile, (cpu() - started) / compileSet.length);
    started = cpu();
    const reps = 100;
    for (let r = 0; r < reps; r++) for (const s of sources) engine.renderText(s, 'bench', new RenderInfo());
    bestRender = Math.min(bestRender, (cpu() - started) / (reps * sources.length));
  }
  process.stdout.write(`${JSON.stringify({ root, renderUs: Number(bestRender.toFixed(2)), compileUs: Number(bestCompile.toFixed(1)) })}\n`);
}

await main();
