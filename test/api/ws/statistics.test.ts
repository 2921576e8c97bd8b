import t from 'tap';
import { isoFromMicros, ManualClock } from '../../../src/core/clock.js';
import { startTestHub } from '../../helpers/hub.js';
import { jsonPost } from '../rest/helpers.js';
import { WsClient } from './client.js';

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0) * 1000;
const MIN = 60_000_000;

t.test('recorder/list_statistic_ids and statistics_during_period answer as Home Assistant does', async (t) => {
  const clock = new ManualClock(T0);
  const { api, hub, wsUrl, token } = await startTestHub(t, { clock });
  const stats = hub.statistics;
  if (stats === undefined) throw new Error('statistics are on by default');
  const post = (id: string, state: string, attributes: Record<string, unknown>) =>
    api(`/api/states/${id}`, jsonPost({ state, attributes }));
  const temp = { unit_of_measurement: '°C', state_class: 'measurement', device_class: 'temperature', friendly_name: 'Hall' };
  const energy = { unit_of_measurement: 'kWh', state_class: 'total_increasing', device_class: 'energy', friendly_name: 'Meter' };
  await post('sensor.hall', '20', temp);
  await post('sensor.meter', '10', energy);
  await post('sensor.no_class', '5', { unit_of_measurement: 'W' });
  for (let i = 1; i <= 12; i++) {
    clock.advance(5 * MIN);
    await post('sensor.hall', String(20 + i), temp);
    await post('sensor.meter', String(10 + i), energy);
    await stats.rollover();
  }
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.close());
  const list = await ws.command('recorder/list_statistic_ids', {});
  t.same(list.result, [
    {
      statistic_id: 'sensor.hall',
      display_unit_of_measurement: '°C',
      has_mean: true,
      has_sum: false,
      mean_type: 1,
      name: 'Hall',
      source: 'recorder',
      statistics_unit_of_measurement: '°C',
      unit_class: 'temperature',
    },
    {
      statistic_id: 'sensor.meter',
      display_unit_of_measurement: 'kWh',
      has_mean: false,
      has_sum: true,
      mean_type: 0,
      name: 'Meter',
      source: 'recorder',
      statistics_unit_of_measurement: 'kWh',
      unit_class: 'energy',
    },
  ]);
  t.same(((await ws.command('recorder/list_statistic_ids', { statistic_type: 'sum' })).result as unknown[]).length, 1);
  const hourly = await ws.command('recorder/statistics_during_period', {
    start_time: isoFromMicros(T0),
    statistic_ids: ['sensor.hall', 'sensor.meter', 'sensor.unknown'],
    period: 'hour',
  });
  const result = hourly.result as Record<string, Record<string, unknown>[]>;
  t.same(Object.keys(result), ['sensor.hall', 'sensor.meter'], 'unknown ids are left out');
  t.same(result['sensor.hall']?.[0], { start: T0 / 1000, end: T0 / 1000 + 3_600_000, mean: 25.5, min: 20, max: 31 });
  t.same(result['sensor.meter']?.[0], { start: T0 / 1000, end: T0 / 1000 + 3_600_000, last_reset: null, state: 21, sum: 11, change: 11 });
  const five = await ws.command('recorder/statistics_during_period', {
    start_time: isoFromMicros(T0),
    end_time: isoFromMicros(T0 + 15 * MIN),
    statistic_ids: ['sensor.hall'],
    period: '5minute',
    types: ['mean'],
  });
  t.same((five.result as Record<string, unknown[]>)['sensor.hall'], [
    { start: T0 / 1000, end: T0 / 1000 + 300_000, mean: 20 },
    { start: T0 / 1000 + 300_000, end: T0 / 1000 + 600_000, mean: 21 },
    { start: T0 / 1000 + 600_000, end: T0 / 1000 + 900_000, mean: 22 },
  ]);
  t.match((await ws.command('recorder/statistics_during_period', { start_time: 'x', statistic_ids: [], period: 'hour' })).error, {
    code: 'invalid_start_time',
  });
  t.match(
    (
      await ws.command('recorder/statistics_during_period', {
        start_time: isoFromMicros(T0),
        end_time: 'y',
        statistic_ids: [],
        period: 'hour',
      })
    ).error,
    {
      code: 'invalid_end_time',
    },
  );
  t.match(
    (await ws.command('recorder/statistics_during_period', { start_time: isoFromMicros(T0), statistic_ids: [], period: 'fortnight' }))
      .error,
    {
      code: 'invalid_format',
      message: /period/,
    },
  );
  t.match(
    (
      await ws.command('recorder/statistics_during_period', {
        start_time: isoFromMicros(T0),
        statistic_ids: [],
        period: 'hour',
        types: ['median'],
      })
    ).error,
    {
      code: 'invalid_format',
      message: /types/,
    },
  );
});
