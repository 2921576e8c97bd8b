import { isObjectId, listItems, readDuration, readMapping } from '../automation/config-values.js';
import type { Action, Condition, Trigger } from '../automation/model.js';
import { parseConditions } from '../automation/parse-conditions.js';
import { parseTriggers, readTemplate } from '../automation/parse-triggers.js';
import { checkTemplates } from '../automation/templating.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { BINARY_SENSOR_DEVICE_CLASSES } from '../domains/binary-sensor.js';
import { BUTTON_DEVICE_CLASSES } from '../domains/button.js';
import { SENSOR_DEVICE_CLASSES, SENSOR_STATE_CLASSES } from '../domains/sensor.js';
import { type DeviceParts, isDeviceDomain, readDeviceParts } from './device-config.js';
import { readActions, readTemplateText } from './read.js';

/** The template entity domains hearth has. */
export const TEMPLATE_DOMAINS = [
  'sensor',
  'binary_sensor',
  'switch',
  'button',
  'number',
  'select',
  'cover',
  'light',
  'fan',
  'lock',
] as const;
export type TemplateDomain = (typeof TEMPLATE_DOMAINS)[number];

/** Home Assistant's other template platforms, refused with the reason (hearth has no such domain). */
const MISSING_DOMAINS = ['image', 'vacuum', 'weather', 'alarm_control_panel', 'event', 'update'];

/** One template entity: its templates (rendered per change) and its fixed parts. */
export interface TemplateEntityDefinition {
  readonly domain: TemplateDomain;
  readonly objectId: string;
  readonly uniqueId?: string;
  readonly name: string;
  /** The state template; a switch without one is optimistic. */
  readonly state?: string;
  readonly availability?: string;
  readonly icon?: string;
  readonly picture?: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly deviceClass?: string;
  readonly unit?: string;
  readonly stateClass?: string;
  readonly delayOnMs?: number;
  readonly delayOffMs?: number;
  readonly turnOn?: readonly Action[];
  readonly turnOff?: readonly Action[];
  /** button: what a press runs. */
  readonly press?: readonly Action[];
  /** number: what set_value runs (with `value`), and its range's templates (or fixed values as text). */
  readonly setValue?: readonly Action[];
  readonly min?: string;
  readonly max?: string;
  readonly step?: string;
  /** select: what select_option runs (with `option`), and the options' template. */
  readonly selectOption?: readonly Action[];
  readonly options?: string;
  /** number and select: a value set is shown at once (always so without a state template). */
  readonly optimistic?: boolean;
  /** cover, light, fan and lock: their own templates, actions and options. */
  readonly device?: DeviceParts;
}

/** A select's options: a template, or (a convenience Home Assistant lacks) a list written out. */
function readOptions(r: ConfigReader): string | undefined {
  const v = r.value.options;
  if (Array.isArray(v) && v.every((o) => typeof o === 'string' || typeof o === 'number')) {
    r.raw('options');
    return JSON.stringify(v.map(String));
  }
  return readTemplate(r, 'options', true);
}

/** What each domain requires beside its state: [key, what it is]. */
const REQUIRED: Readonly<Partial<Record<TemplateDomain, readonly (readonly [string, string])[]>>> = {
  switch: [
    ['turn_on', 'the actions that turn the switch on'],
    ['turn_off', 'the actions that turn the switch off'],
  ],
  button: [['press', 'the actions a press runs']],
  number: [['set_value', 'the actions that set the value (with the variable value)']],
  select: [['select_option', 'the actions that select an option (with the variable option)']],
};

/** Domains whose state template may be left out: the state is then the last one set (optimistic). */
const STATE_OPTIONAL: ReadonlySet<TemplateDomain> = new Set(['switch', 'button', 'number', 'select', 'cover', 'light', 'fan', 'lock']);

/** One item of the `template:` list: entities, and for trigger-based ones their triggers, conditions and variables. */
export interface TemplateBlock {
  readonly triggers?: readonly Trigger[];
  readonly conditions: readonly Condition[];
  readonly variables: JsonObject;
  readonly entities: readonly TemplateEntityDefinition[];
}

function parseEntity(
  domain: TemplateDomain,
  value: JsonValue,
  path: ConfigPath,
  issues: ConfigIssue[],
  blockUniqueId: string | undefined,
  taken: Set<string>,
): TemplateEntityDefinition | undefined {
  const r = ConfigReader.of(value, path, issues);
  if (!isJsonObject(value)) return undefined;
  const uniqueId = r.string('unique_id');
  const rawName = r.string('name');
  if (rawName !== undefined) checkTemplates(rawName, [...path, 'name'], issues);
  // A templated name is not rendered; the entity is named by its unique id, as an unnamed one is.
  const name = rawName !== undefined && !rawName.includes('{') ? rawName : undefined;
  const base =
    name !== undefined ? slugify(name) : uniqueId !== undefined && isObjectId(slugify(uniqueId)) ? slugify(uniqueId) : `template_${domain}`;
  let objectId = base || `template_${domain}`;
  for (let n = 2; taken.has(`${domain}.${objectId}`); n++) objectId = `${base}_${n}`;
  taken.add(`${domain}.${objectId}`);
  const attributes: Record<string, string> = {};
  const attrs = readMapping(r, 'attributes') ?? {};
  for (const [key, item] of Object.entries(attrs)) {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
      issues.push({ path: [...path, 'attributes', key], message: `expected a template or a value, got ${kindOf(item)}` });
      continue;
    }
    checkTemplates(item, [...path, 'attributes', key], issues);
    setOwn(attributes, key, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const deviceClasses: Partial<Record<TemplateDomain, readonly string[]>> = {
    sensor: SENSOR_DEVICE_CLASSES,
    binary_sensor: BINARY_SENSOR_DEVICE_CLASSES,
    switch: ['outlet', 'switch'],
    button: BUTTON_DEVICE_CLASSES,
  };
  const classes = deviceClasses[domain];
  const device = isDeviceDomain(domain) ? readDeviceParts(domain, r, false) : undefined;
  const definition: TemplateEntityDefinition = {
    domain,
    objectId,
    uniqueId: uniqueId === undefined ? undefined : blockUniqueId === undefined ? uniqueId : `${blockUniqueId}-${uniqueId}`,
    name: name ?? rawName ?? `Template ${domain}`,
    // A template button has no state: it is the time of its last press.
    state: domain === 'button' ? undefined : device !== undefined ? device.state : readTemplateText(r, 'state'),
    availability: readTemplateText(r, 'availability'),
    icon: readTemplateText(r, 'icon'),
    picture: readTemplateText(r, 'picture'),
    attributes,
    deviceClass: classes === undefined ? device?.deviceClass : r.oneOf('device_class', classes),
    unit: domain === 'sensor' || domain === 'number' ? r.string('unit_of_measurement') : undefined,
    stateClass: domain === 'sensor' ? r.oneOf('state_class', SENSOR_STATE_CLASSES) : undefined,
    delayOnMs: domain === 'binary_sensor' ? readDuration(r, 'delay_on') : undefined,
    delayOffMs: domain === 'binary_sensor' ? readDuration(r, 'delay_off') : undefined,
    turnOn: readActions(r, 'turn_on', domain === 'switch'),
    turnOff: readActions(r, 'turn_off', domain === 'switch'),
    press: readActions(r, 'press', domain === 'button'),
    setValue: readActions(r, 'set_value', domain === 'number'),
    min: domain === 'number' ? readTemplateText(r, 'min') : undefined,
    max: domain === 'number' ? readTemplateText(r, 'max') : undefined,
    step: domain === 'number' ? readTemplateText(r, 'step') : undefined,
    selectOption: readActions(r, 'select_option', domain === 'select'),
    options: domain === 'select' ? readOptions(r) : undefined,
    optimistic: domain === 'number' || domain === 'select' ? r.boolean('optimistic', false) : device?.optimistic,
    device,
  };
  if (!STATE_OPTIONAL.has(domain) && definition.state === undefined) r.problem('state', 'is required: expected a template');
  for (const [key, what] of REQUIRED[domain] ?? []) if (!r.has(key)) r.problem(key, `is required: expected ${what}`);
  r.rejectUnknown();
  return definition;
}

/** Reads the plural key or the legacy singular one (`triggers:`/`trigger:`). */
function readEither(r: ConfigReader, plural: string, singular: string): { value: JsonValue | undefined; path: ConfigPath } | undefined {
  if (r.has(plural) && r.has(singular)) r.problem(singular, `give either ${plural}: or the legacy ${singular}:, not both`);
  const key = r.has(plural) ? plural : r.has(singular) ? singular : undefined;
  r.raw(plural);
  r.raw(singular);
  return key === undefined ? undefined : { value: r.value[key], path: [...r.path, key] };
}

/** Parses the `template:` section (a list of blocks, or one block); check-config and the component share it. */
export function parseTemplateSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): TemplateBlock[] {
  if (section === undefined || section === null) return [];
  if (!Array.isArray(section) && !isJsonObject(section)) {
    issues.push({ path, message: `expected a list of template blocks, got ${kindOf(section)}` });
    return [];
  }
  const blocks: TemplateBlock[] = [];
  const taken = new Set<string>();
  for (const item of listItems(section, path)) {
    const r = ConfigReader.of(item.value, item.path, issues);
    if (!isJsonObject(item.value)) continue;
    const blockUniqueId = r.string('unique_id');
    const triggers = readEither(r, 'triggers', 'trigger');
    const conditions = readEither(r, 'conditions', 'condition');
    const actions = readEither(r, 'actions', 'action');
    const variables = readMapping(r, 'variables') ?? {};
    checkTemplates(variables, [...item.path, 'variables'], issues);
    if (actions !== undefined)
      r.problem(actions.path[actions.path.length - 1] as string, 'actions in a template block are not supported; use an automation');
    if (triggers === undefined && (conditions !== undefined || r.has('variables'))) {
      r.problem('triggers', 'is required with conditions or variables: only trigger-based template entities have them');
    }
    const entities: TemplateEntityDefinition[] = [];
    for (const domain of TEMPLATE_DOMAINS) {
      for (const e of listItems(r.raw(domain), [...item.path, domain])) {
        const def = parseEntity(domain, e.value, e.path, issues, blockUniqueId, taken);
        if (def !== undefined) entities.push(def);
      }
    }
    for (const domain of MISSING_DOMAINS) {
      if (r.raw(domain) !== undefined) r.problem(domain, `template ${domain} entities are not supported: hearth has no ${domain} domain`);
    }
    r.rejectUnknown();
    blocks.push({
      triggers: triggers === undefined ? undefined : parseTriggers(triggers.value, triggers.path, issues),
      conditions: conditions === undefined ? [] : parseConditions(conditions.value, conditions.path, issues),
      variables,
      entities,
    });
  }
  return blocks;
}

/**
 * The item a problem in the `template:` section is in: one entity (`template[0].sensor[1]`), else its block, so a
 * broken entity leaves out only itself.
 */
export function templateItemOf(path: ConfigPath): ConfigPath {
  const at = path.findIndex((p, i) => i > 0 && i <= 2 && typeof p === 'string' && (TEMPLATE_DOMAINS as readonly string[]).includes(p));
  if (at > 0) return path.slice(0, typeof path[at + 1] === 'number' ? at + 2 : at + 1);
  return path.slice(0, typeof path[1] === 'number' ? 2 : 1);
}
