import { casesOf } from './types.js';

/** tests/helpers/template/extensions/test_datetime.py (datetime, bytes and mapping-proxy variables are Python objects: skipped). */
export const DATETIME = casesOf('extensions/test_datetime.py', '181d483ca43735f390da8e612443491141f0967d', (c) => {
  c.eq('test_is_datetime', '{{ value is datetime }}', false, { vars: { value: [1, 2] } });
  c.eq('test_is_datetime', '{{ value is datetime }}', false, { vars: { value: { a: 1, b: 2 } } });
  c.eq('test_is_datetime', '{{ value is datetime }}', false, { vars: { value: 'abc' } });
  c.eq('test_is_datetime', "{{ as_datetime('2024-01-01 00:00:00') is datetime }}", true);

  for (const [inp, fmt, expected] of [
    ['2016-10-19 15:22:05.588122 UTC', '%Y-%m-%d %H:%M:%S.%f %Z', '2016-10-19 15:22:05.588122'],
    ['2016-10-19 15:22:05.588122+0100', '%Y-%m-%d %H:%M:%S.%f%z', '2016-10-19 15:22:05.588122+01:00'],
    ['2016-10-19 15:22:05.588122', '%Y-%m-%d %H:%M:%S.%f', '2016-10-19 15:22:05.588122'],
    ['2016-10-19', '%Y-%m-%d', '2016-10-19 00:00:00'],
    ['2016', '%Y', '2016-01-01 00:00:00'],
    ['15:22:05', '%H:%M:%S', '1900-01-01 15:22:05'],
  ] as const)
    c.eq('test_strptime', `{{ strptime('${inp}', '${fmt}') }}`, expected);
  c.err('test_strptime', "{{ strptime('1469119144', '%Y') }}");
  c.err('test_strptime', "{{ strptime('invalid', '%Y') }}");
  c.eq('test_strptime', "{{ strptime('invalid', '%Y', 1) }}", 1);
  c.eq('test_strptime', "{{ strptime('invalid', '%Y', default=1) }}", 1);

  const utc = { tz: 'UTC' };
  c.eq('test_timestamp_custom', '{{ 1469119144 | timestamp_custom }}', '2016-07-21 16:39:04', utc);
  c.eq('test_timestamp_custom', "{{ 1469119144 | timestamp_custom('%Y') }}", 2016, utc);
  c.eq('test_timestamp_custom', "{{ 1469119144 | timestamp_custom('invalid') }}", 'invalid', utc);
  c.err('test_timestamp_custom', '{{ None | timestamp_custom }}', utc);
  c.eq('test_timestamp_custom', "{{ None | timestamp_custom('invalid', True, 1) }}", 1, utc);
  c.eq('test_timestamp_custom', '{{ None | timestamp_custom(default=1) }}', 1, utc);
  c.eq('test_timestamp_local', '{{ 1469119144 | timestamp_local }}', '2016-07-21T16:39:04+00:00', utc);
  c.err('test_timestamp_local', '{{ None | timestamp_local }}', utc);
  c.eq('test_timestamp_local', '{{ None | timestamp_local(1) }}', 1, utc);
  c.eq('test_timestamp_local', '{{ None | timestamp_local(default=1) }}', 1, utc);

  for (const [input, expected] of [
    ['2021-06-03 13:00:00.000000+00:00', '2021-06-03 13:00:00+00:00'],
    ['1986-07-09T12:00:00Z', '1986-07-09 12:00:00+00:00'],
    ['2016-10-19 15:22:05.588122+0100', '2016-10-19 15:22:05.588122+01:00'],
    ['2016-10-19', '2016-10-19 00:00:00'],
    ['2021-01-01 00:00:01', '2021-01-01 00:00:01'],
    ['invalid', null],
  ] as const) {
    c.eq('test_as_datetime', `{{ as_datetime('${input}') }}`, expected);
    c.eq('test_as_datetime', `{{ '${input}' | as_datetime }}`, expected);
  }
  for (const [input, output] of [
    ['1469119144', '2016-07-21 16:39:04+00:00'],
    ['1469119144.0', '2016-07-21 16:39:04+00:00'],
    ['-1', '1969-12-31 23:59:59+00:00'],
  ] as const) {
    c.eq('test_as_datetime_from_timestamp', `{{ as_datetime(${input}) }}`, output);
    c.eq('test_as_datetime_from_timestamp', `{{ ${input} | as_datetime }}`, output);
    c.eq('test_as_datetime_from_timestamp', `{{ as_datetime('${input}') }}`, output);
    c.eq('test_as_datetime_from_timestamp', `{{ '${input}' | as_datetime }}`, output);
  }
  for (const [input, output] of [
    ["{% set dt = as_datetime('2024-01-01 16:00:00-08:00') %}", '2024-01-01 16:00:00-08:00'],
    ["{% set dt = as_datetime('2024-01-29').date() %}", '2024-01-29 00:00:00'],
  ] as const) {
    c.eq('test_as_datetime_from_datetime', `${input}{{ dt | as_datetime }}`, output);
    c.eq('test_as_datetime_from_datetime', `${input}{{ as_datetime(dt) }}`, output);
  }
  for (const [input, def, output] of [
    ['1469119144', '123', '2016-07-21 16:39:04+00:00'],
    ['"invalid"', "['default output']", ['default output']],
    ["['a', 'list']", '0', 0],
    ["{'a': 'dict'}", 'None', null],
  ] as const) {
    c.eq('test_as_datetime_default', `{{ as_datetime(${input}, default=${def}) }}`, output);
    c.eq('test_as_datetime_default', `{{ ${input} | as_datetime(${def}) }}`, output);
  }
  const available: [string, string][] = [['test.object', 'available']];
  c.eq('test_as_local', '{{ as_local(states.test.object.last_updated) }}', '2026-01-15 04:00:00-08:00', { states: available });
  c.eq('test_as_local', '{{ states.test.object.last_updated | as_local }}', '2026-01-15 04:00:00-08:00', { states: available });
  c.eq('test_timestamp_utc', '{{ 1469119144 | timestamp_utc }}', '2016-07-21T16:39:04+00:00');
  c.err('test_timestamp_utc', '{{ None | timestamp_utc }}');
  c.eq('test_timestamp_utc', '{{ None | timestamp_utc(1) }}', 1);
  c.eq('test_timestamp_utc', '{{ None | timestamp_utc(default=1) }}', 1);
  c.err('test_as_timestamp', '{{ as_timestamp("invalid") }}');
  c.eq('test_as_timestamp', '{{ as_timestamp(strptime("2024-02-03T09:10:24+0000", "%Y-%m-%dT%H:%M:%S%z")) }}', 1706951424.0);
  c.eq('test_as_timestamp', "{{ 'invalid' | as_timestamp(1) }}", 1);
  c.eq('test_as_timestamp', "{{ 'invalid' | as_timestamp(default=1) }}", 1);
  c.eq('test_as_timestamp', "{{ as_timestamp('invalid', 1) }}", 1);
  c.eq('test_as_timestamp', "{{ as_timestamp('invalid', default=1) }}", 1);
  c.eq('test_as_timedelta', "{{ as_timedelta('PT10M') }}", '0:10:00');
  c.eq('test_as_timedelta', "{{ 'PT10M' | as_timedelta }}", '0:10:00');
  c.eq('test_as_timedelta', "{{ 'T10M' | as_timedelta }}", null);
  const frozen = { now: '2026-01-15T12:00:00+00:00' };
  c.eq('test_now', '{{ now().isoformat() }}', '2026-01-15T04:00:00-08:00', frozen);
  c.eq('test_utcnow', '{{ utcnow().isoformat() }}', '2026-01-15T12:00:00+00:00', frozen);
  for (const now of ['2021-11-24T03:00:00+00:00', '2021-11-23T19:00:00-08:00']) {
    const at = { now, tz: 'America/Los_Angeles' };
    c.eq('test_today_at', "{{ today_at('10:00').isoformat() }}", '2021-11-23T10:00:00-08:00', at);
    c.eq('test_today_at', "{{ today_at('10:00:00').isoformat() }}", '2021-11-23T10:00:00-08:00', at);
    c.eq('test_today_at', "{{ ('10:00:00' | today_at).isoformat() }}", '2021-11-23T10:00:00-08:00', at);
    c.eq('test_today_at', '{{ today_at().isoformat() }}', '2021-11-23T00:00:00-08:00', at);
    c.err('test_today_at', "{{ today_at('bad') }}", at);
  }
  const y2k = { now: '2000-01-01T10:00:00+00:00', tz: 'UTC' };
  const strp = (s: string) => `strptime("${s}", "%Y-%m-%d %H:%M:%S %z")`;
  for (const fn of ['relative_time', 'time_since']) {
    const test = fn === 'relative_time' ? 'test_relative_time' : 'test_time_since';
    c.eq(test, `{{${fn}(strptime("2000-01-01 09:00:00", "%Y-%m-%d %H:%M:%S"))}}`, '1 hour', y2k);
    c.eq(test, `{{  ${fn}(    ${strp('2000-01-01 09:00:00 +01:00')}  )}}`, '2 hours', y2k);
    c.eq(test, `{{  ${fn}(    ${strp('2000-01-01 03:00:00 -06:00')}  )}}`, '1 hour', y2k);
    c.eq(test, `{{  ${fn}(    ${strp('2000-01-01 11:00:00 +00:00')}  )}}`, '2000-01-01 11:00:00+00:00', y2k);
    c.eq(test, `{{${fn}("string")}}`, 'string', y2k);
  }
  c.eq('test_relative_time', `{{  relative_time(    ${strp('2000-01-01 10:00:00 +00:00')}  )}}`, '0 seconds', y2k);
  const withPrecision = (fn: string, when: string, precision: string) =>
    `{{  ${fn}(    strptime(       "${when}",       "%Y-%m-%d %H:%M:%S %z")${precision === '' ? '' : `,       precision = ${precision}`}  )}}`;
  for (const [when, precision, out] of [
    ['2000-01-01 11:00:00 +00:00', '2', '2000-01-01 11:00:00+00:00'],
    ['2000-01-01 09:05:00 +01:00', '2', '1 hour 55 minutes'],
    ['2000-01-01 02:05:27 -06:00', '3', '1 hour 54 minutes 33 seconds'],
    ['2000-01-01 02:05:27 -06:00', '', '2 hours'],
    ['1999-02-01 02:05:27 -06:00', '0', '11 months 4 days 1 hour 54 minutes 33 seconds'],
    ['1999-02-01 02:05:27 -06:00', '', '11 months'],
    ['2000-01-01 11:00:00 +00:00', '3', '2000-01-01 11:00:00+00:00'],
  ] as const)
    c.eq('test_time_since', withPrecision('time_since', when, precision), out, y2k);
  c.eq('test_time_until', '{{time_until(strptime("2000-01-01 11:00:00", "%Y-%m-%d %H:%M:%S"))}}', '1 hour', y2k);
  for (const [when, precision, out] of [
    ['2000-01-01 13:00:00 +01:00', '', '2 hours'],
    ['2000-01-01 05:00:00 -06:00', '', '1 hour'],
    ['2000-01-01 09:00:00 +00:00', '2', '2000-01-01 09:00:00+00:00'],
    ['2000-01-01 12:05:00 +01:00', '2', '1 hour 5 minutes'],
    ['2000-01-01 05:54:33 -06:00', '3', '1 hour 54 minutes 33 seconds'],
    ['2000-01-01 05:54:33 -06:00', '', '2 hours'],
    ['2001-02-01 05:54:33 -06:00', '0', '1 year 1 month 2 days 1 hour 54 minutes 33 seconds'],
    ['2001-02-01 05:54:33 -06:00', '4', '1 year 1 month 2 days 2 hours'],
    ['2000-01-01 09:00:00 +00:00', '3', '2000-01-01 09:00:00+00:00'],
  ] as const)
    c.eq('test_time_until', withPrecision('time_until', when, precision), out, y2k);
  c.eq('test_time_until', '{{time_until("string")}}', 'string', y2k);
});
