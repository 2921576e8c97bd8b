import { compileTemplate } from './compile.js';
import type { NjEnvironment } from './nunjucks.js';
import { RenderInfo } from './render-info.js';
import { inScope, type RenderScope } from './scope.js';

/**
 * Compiles and renders a few templates of the common shapes once, untimed, when the environment is made: the
 * first compiles and renders run nunjucks' code for the first time (V8 compiles each function on its first
 * call), several times slower than later ones, and would otherwise be cut off by the deadline on a slow board.
 */
export function warmUp(env: NjEnvironment): void {
  const info = new RenderInfo();
  for (const source of WARM_UP) {
    try {
      const template = compileTemplate(env, source, 'warm-up');
      inScope({ ...WARM_UP_SCOPE, info }, () => template.render({ x: [1, 2, 3] }));
    } catch {
      // Warming up only: a template that fails here still ran the code.
    }
  }
}

const WARM_UP: readonly string[] = [
  "{{ states('sensor.x') | float(0) | round(1) }} {{ state_attr('light.x', 'brightness') }} {{ is_state('light.x', 'on') }}",
  "{% if x | length > 2 and not false %}{{ 'a' ~ x[0] }}{% elif x %}b{% else %}{{ none }}{% endif %}",
  '{% for i in x %}{{ i * 2 + 1 - 3 / 4 // 1 % 2 }}{% if not loop.last %}, {% endif %}{% endfor %}',
  '{% set ns = namespace(n=0) %}{% for s in states.light %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}',
  "{{ states | selectattr('state', 'eq', 'on') | map(attribute='entity_id') | list | join(', ') }}",
  "{{ now().strftime('%H:%M') }} {{ (as_timestamp(now()) - 60) | timestamp_custom('%H') }} {{ {'a': [1, 2]}.a[1:] }}",
  "{{ 'abc'.upper().split('B') }} {{ '%.1f' % 2 }} {{ x | sum }} {{ iif(x, 'y', 'n') }} {{ x is defined }}",
  "{{ relative_time(now() - timedelta(hours=1)) }} {{ as_datetime('2026-01-15 13:00') }} {{ today_at('10:00') < now() }}",
  "{{ 'a1b2' | regex_replace('[0-9]', '') }} {{ 'x' is match('x') }} {{ {'a': 1} | to_json }} {{ '[1]' | from_json | first }}",
  "{{ x | map('int') | select('gt', 1) | sort(reverse=true) | unique | list | length }} {{ (x | groupby('real')) | count }}",
  "{{ x | min }} {{ x | max }} {{ 2.5 | round(0, 'floor') }} {{ '3' | float(0) + '4' | int(0) }} {{ 'a b'.replace('a', 'c') | title }}",
];

const WARM_UP_SCOPE: Omit<RenderScope, 'info'> = {
  templateName: 'warm-up',
  nowUs: 0,
  strict: false,
  deadline: Number.POSITIVE_INFINITY,
  limitMs: Number.POSITIVE_INFINITY,
  maxOutputChars: 4096,
  maxStringChars: 4096,
  steps: 0,
  outputChars: 0,
  lastMissing: undefined,
};
