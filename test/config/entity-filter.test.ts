import t from 'tap';
import { entityFilter, parseFlatFilter } from '../../src/config/entity-filter.js';
import type { ConfigIssue } from '../../src/config/reader.js';

/**
 * Home Assistant's entity filter (helpers/entityfilter.py generate_filter) as its tests/helpers/test_entityfilter.py
 * checks it: each row is one of those tests' filters and what it asserts for each entity.
 */
interface Row {
  readonly name: string;
  readonly include?: { domains?: string[]; entities?: string[]; globs?: string[] };
  readonly exclude?: { domains?: string[]; entities?: string[]; globs?: string[] };
  readonly pass: readonly string[];
  readonly fail: readonly string[];
}

const ROWS: readonly Row[] = [
  { name: 'test_no_filters_case_1', pass: ['sensor.test', 'sun.sun', 'light.test'], fail: [] },
  {
    name: 'test_includes_only_case_2',
    include: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working'],
    fail: ['binary_sensor.notworking', 'switch.test_switch', 'sun.sun'],
  },
  {
    name: 'test_includes_only_with_glob_case_2',
    include: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'], globs: ['cover.*_window'] },
    pass: ['sensor.test', 'light.test', 'cover.bedroom_window', 'binary_sensor.working'],
    fail: ['binary_sensor.notworking', 'switch.test_switch', 'sun.sun', 'cover.garage_door'],
  },
  {
    name: 'test_excludes_only_case_3',
    exclude: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'] },
    pass: ['binary_sensor.another', 'switch.test_switch', 'sun.sun'],
    fail: ['sensor.test', 'light.test', 'binary_sensor.working'],
  },
  {
    name: 'test_excludes_only_with_glob_case_3',
    exclude: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'], globs: ['cover.*_window'] },
    pass: ['binary_sensor.another', 'switch.test_switch', 'cover.garage_door'],
    fail: ['sensor.test', 'light.test', 'cover.bedroom_window', 'binary_sensor.working'],
  },
  {
    name: 'test_with_include_domain_case4',
    include: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'] },
    exclude: { entities: ['light.ignoreme', 'sensor.notworking'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working'],
    fail: ['sensor.notworking', 'light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
  {
    name: 'test_with_include_domain_exclude_glob_case4',
    include: { domains: ['light', 'sensor'], entities: ['binary_sensor.working'] },
    exclude: { entities: ['light.ignoreme', 'sensor.notworking'], globs: ['sensor.busted'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working'],
    fail: ['sensor.busted', 'sensor.notworking', 'light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
  {
    name: 'test_with_include_glob_case4',
    include: { globs: ['light.*', 'sensor.*'], entities: ['binary_sensor.working'] },
    exclude: { entities: ['light.ignoreme', 'sensor.notworking'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working'],
    fail: ['sensor.notworking', 'light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
  {
    name: 'test_with_include_domain_glob_filtering_case4 (an include glob is stronger than an exclude glob)',
    include: { domains: ['light'], globs: ['*working'] },
    exclude: { entities: ['light.ignoreme'], globs: ['*notworking'] },
    pass: ['sensor.working', 'sensor.notworking', 'light.test', 'light.notworking', 'binary_sensor.not_working'],
    fail: ['light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
  {
    name: 'test_with_include_domain_glob_filtering_case4a_include_strong',
    include: { domains: ['light'], globs: ['*working'], entities: ['binary_sensor.specificly_included'] },
    exclude: { entities: ['light.ignoreme'], globs: ['*broken', '*notworking', 'binary_sensor.*'] },
    pass: [
      'sensor.working',
      'sensor.notworking',
      'light.test',
      'light.notworking',
      'binary_sensor.not_working',
      'binary_sensor.specificly_included',
    ],
    fail: ['sensor.broken', 'light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
  {
    name: 'test_exclude_domain_case5',
    include: { entities: ['binary_sensor.working'] },
    exclude: { domains: ['binary_sensor'], entities: ['light.ignoreme', 'sensor.notworking'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working', 'sun.sun'],
    fail: ['sensor.notworking', 'light.ignoreme', 'binary_sensor.another'],
  },
  {
    name: 'test_exclude_glob_case5',
    include: { entities: ['binary_sensor.working'] },
    exclude: { globs: ['binary_sensor.*'], entities: ['light.ignoreme', 'sensor.notworking'] },
    pass: ['sensor.test', 'light.test', 'binary_sensor.working', 'sun.sun'],
    fail: ['sensor.notworking', 'light.ignoreme', 'binary_sensor.another'],
  },
  {
    name: 'test_no_domain_case6',
    include: { entities: ['binary_sensor.working'] },
    exclude: { entities: ['light.ignoreme', 'sensor.notworking'] },
    pass: ['binary_sensor.working'],
    fail: ['sensor.test', 'sensor.notworking', 'light.test', 'light.ignoreme', 'binary_sensor.another', 'sun.sun'],
  },
];

const config = (f: Row['include']) => ({ domains: f?.domains ?? [], entities: f?.entities ?? [], entityGlobs: f?.globs ?? [] });

for (const row of ROWS) {
  t.test(row.name, async (t) => {
    const filter = entityFilter(config(row.include), config(row.exclude));
    for (const id of row.pass) t.equal(filter(id), true, `${id} passes`);
    for (const id of row.fail) t.equal(filter(id), false, `${id} is filtered out`);
  });
}

// hearth's areas and labels count as domains do: a category an entity (or its device) is in.
t.test('areas and labels select as domains do, and veto an include domain when excluded', async (t) => {
  const kitchen = { areaId: 'kitchen', labels: [] };
  const porch = { areaId: 'porch', labels: ['outdoor'] };
  const onlyKitchen = entityFilter({ ...config({}), areas: ['kitchen'] }, config({}));
  t.equal(onlyKitchen('light.a', kitchen), true);
  t.equal(onlyKitchen('light.b', porch), false);
  t.equal(onlyKitchen('light.c'), false, 'an entity with no known place is not in the area');
  const lightsNotOutdoor = entityFilter(config({ domains: ['light'] }), { ...config({}), labels: ['outdoor'] });
  t.equal(lightsNotOutdoor('light.a', kitchen), true);
  t.equal(lightsNotOutdoor('light.b', porch), false, 'an excluded label vetoes an included domain');
  t.equal(lightsNotOutdoor('switch.c', kitchen), false);
  const allButPorch = entityFilter(config({}), { ...config({}), areas: ['porch'] });
  t.equal(allButPorch('switch.c', kitchen), true);
  t.equal(allButPorch('switch.d', porch), false);
});

t.test("parseFlatFilter reads HA's flat keys and names an unknown one", async (t) => {
  const issues: ConfigIssue[] = [];
  const f = parseFlatFilter(
    { include_domains: ['light'], exclude_entity_globs: 'light.*_led', include_labels: ['voice'] },
    ['homekit', 'filter'],
    issues,
  );
  t.same(issues, []);
  t.same(f.include.domains, ['light']);
  t.same(f.include.labels, ['voice']);
  t.same(f.exclude.entityGlobs, ['light.*_led']);
  parseFlatFilter({ include_domain: ['light'], exclude_entities: 3 }, ['matter', 'filter'], issues);
  t.match(issues, [
    { path: ['matter', 'filter', 'include_domain'], message: /unknown key; allowed: include_domains/ },
    { path: ['matter', 'filter', 'exclude_entities'], message: 'expected a list of strings' },
  ]);
});
