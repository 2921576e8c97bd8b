import t from 'tap';
import { parseConfigText, readConfigText, type SectionValidators } from '../../src/config/load.js';
import { mergePackages } from '../../src/config/packages.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import type { JsonObject } from '../../src/core/json.js';

/**
 * Home Assistant's package merge (config.py merge_packages_config), as its tests/test_config.py checks it: the cases
 * below are those tests' configurations and what they assert, run through hearth's merge.
 */
interface Case {
  readonly name: string;
  readonly config: JsonObject;
  readonly packages: JsonObject;
  readonly expect: JsonObject;
  /** Problems, `<package>.<section>: message`. */
  readonly errors?: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: 'test_merge: mappings merged, list sections joined, a mapping in a list section is one item',
    config: { input_boolean: { ib1: null }, light: [{ platform: 'test' }] },
    packages: {
      pack_dict: { input_boolean: { ib2: null } },
      pack_11: { input_select: { is1: null } },
      pack_list: { light: { platform: 'test' } },
      pack_list2: { light: [{ platform: 'test' }] },
      pack_none: { wake_on_lan: null },
      pack_empty: {},
    },
    expect: {
      input_boolean: { ib1: null, ib2: null },
      light: [{ platform: 'test' }, { platform: 'test' }, { platform: 'test' }],
      input_select: { is1: null },
      wake_on_lan: {},
    },
  },
  {
    name: 'test_merge_try_falsy: falsy items are dropped from joined lists',
    config: { automation: { do_something: null }, light: { some: null } },
    packages: { pack_falsy_to_lst: { automation: {} }, pack_list2: { light: {} } },
    expect: { automation: [{ do_something: null }], light: [{ some: null }] },
  },
  {
    name: 'test_merge_new: sections only packages give',
    config: {},
    packages: {
      pack_1: { light: [{ platform: 'one' }] },
      pack_11: { input_select: { ib1: null } },
      pack_2: { light: { platform: 'one' }, panel_custom: { pan1: null }, api: {} },
    },
    // panel_custom's schema is a list (Home Assistant's test asserts one panel).
    expect: { light: [{ platform: 'one' }, { platform: 'one' }], input_select: { ib1: null }, panel_custom: [{ pan1: null }], api: {} },
  },
  {
    name: 'test_merge_type_mismatch: a list into a mapping section and the other way round are problems',
    config: { input_boolean: { ib2: null }, input_select: [{ ib2: null }], light: [{ platform: 'two' }] },
    packages: { pack_1: { input_boolean: [{ ib1: null }] }, pack_11: { input_select: { ib1: null } }, pack_2: { light: { ib1: null } } },
    expect: { input_boolean: { ib2: null }, input_select: [{ ib2: null }], light: [{ platform: 'two' }, { ib1: null }] },
    errors: [
      "pack_1.input_boolean: Setup of package 'pack_1' failed: integration 'input_boolean' cannot be merged, expected a dict",
      "pack_11.input_select: Setup of package 'pack_11' failed: integration 'input_select' cannot be merged, dict expected in main config",
    ],
  },
  {
    name: 'test_merge_once_only_keys: keys of a mapping section merged, a key given twice is a problem',
    config: { api: { key_1: 1, key_2: 2 } },
    packages: { pack_2: { api: { key_3: 3 } } },
    expect: { api: { key_1: 1, key_2: 2, key_3: 3 } },
  },
  {
    name: 'test_merge_once_only_keys: a key the main file gives too',
    config: { api: { key: 1 } },
    packages: { pack_2: { api: { key: 2 } } },
    expect: { api: { key: 1 } },
    errors: ["pack_2.api: Setup of package 'pack_2' failed: integration 'api' has duplicate key 'key'"],
  },
  {
    name: 'test_merge_once_only_keys: nested mappings merged, nested lists joined',
    config: { mqtt: { sensor: [{ name: 'a' }], broker: 'localhost' } },
    packages: { pack: { mqtt: { sensor: [{ name: 'b' }], port: 1883 } } },
    expect: { mqtt: { sensor: [{ name: 'a' }, { name: 'b' }], broker: 'localhost', port: 1883 } },
  },
  {
    name: 'test_merge_once_only_keys: an empty main value takes the package one',
    config: { api: null },
    packages: { pack_2: { api: null } },
    expect: { api: {} },
  },
  {
    name: 'test_merge_duplicate_keys: a helper defined in both',
    config: { input_select: { ib1: 1 } },
    packages: { pack_1: { input_select: { ib1: 2 } } },
    expect: { input_select: { ib1: 1 } },
    errors: ["pack_1.input_select: Setup of package 'pack_1' failed: integration 'input_select' has duplicate key 'ib1'"],
  },
  {
    name: 'test_merge_split_component_definition: labelled keys stay apart',
    config: {},
    packages: { pack_1: { 'light one': { l1: null } }, pack_2: { 'light two': { l2: null }, 'light three': { l3: null } } },
    expect: { 'light one': [{ l1: null }], 'light two': [{ l2: null }], 'light three': [{ l3: null }] },
  },
  {
    name: 'a package name Home Assistant refuses',
    config: {},
    packages: { 'bad.name': { input_boolean: { a: null } } },
    expect: {},
    errors: ['bad.name: "bad.name" is not allowed: expected a package name of letters, digits, _, - and spaces'],
  },
  {
    name: 'an invalid domain',
    config: {},
    packages: { pack: { 'Input Boolean': { a: null } } },
    expect: {},
    errors: ["pack.Input Boolean: Setup of package 'pack' failed: Invalid domain 'Input Boolean'"],
  },
];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const issues: ConfigIssue[] = [];
    const { config } = mergePackages(c.config, c.packages, [], issues);
    t.same(config, c.expect);
    t.same(
      issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      c.errors ?? [],
    );
  });
}

const VALIDATORS: SectionValidators = {
  input_boolean: (value) => value,
  automation: (value) => value,
};

t.test('in a file: a package problem names the package and key, at its line, and leaves only that section off', async (t) => {
  const text = [
    'homeassistant:', //            1
    '  packages:', //               2
    '    porch:', //                3
    '      input_boolean:', //      4
    '        porch: {name: a}', //  5
    '      automation:', //         6
    '        - alias: x', //        7
    'input_boolean:', //            8
    '  porch: {name: b}', //        9
  ].join('\n');
  const config = readConfigText(text, null, VALIDATORS);
  t.same(
    config.problems.map((p) => [p.line, p.section, p.message]),
    // Home Assistant's _recursive_merge goes into porch's mapping and finds `name` given twice.
    [[4, 'input_boolean', "Setup of package 'porch' failed: integration 'input_boolean' has duplicate key 'name'"]],
  );
  t.same(config.sections.automation, [{ alias: 'x' }]);
  t.same(config.sections.input_boolean, { porch: { name: 'b' } });
});

t.test("in a file: a validator's problem in a package's item points into the package", async (t) => {
  const validators: SectionValidators = {
    input_boolean: (value, path, issues) => {
      for (const [k, v] of Object.entries(value as JsonObject))
        if (v === null) issues.push({ path: [...path, k], message: 'needs a name' });
    },
  };
  const text = [
    'homeassistant:',
    '  packages:',
    '    p1:',
    '      input_boolean:',
    '        bad:',
    'input_boolean:',
    '  good: {name: g}',
  ].join('\n');
  try {
    parseConfigText(text, null, validators);
    t.fail('expected a problem');
  } catch (err) {
    const [issue] = (err as { issues: { line: number; path: readonly (string | number)[] }[] }).issues;
    t.equal(issue?.line, 5);
    t.same(issue?.path, ['homeassistant', 'packages', 'p1', 'input_boolean', 'bad']);
  }
});

t.test('a package section named __proto__ is a key like any other, never a prototype', async (t) => {
  const config = readConfigText('homeassistant:\n  packages:\n    p:\n      "__proto__": {polluted: true}\n', null, VALIDATORS);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.match(
    config.problems.map((p) => p.message),
    [/^unknown section/],
  );
});
