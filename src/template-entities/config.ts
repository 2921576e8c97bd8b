import { isObjectId, listItems, readDuration, readMapping } from '../automation/config-values.js';
import type { Action, Condition, Trigger } from '../automation/model.js';
import { parseActions } from '../automation/parse-actions.js';
import { parseConditions } from '../automation/parse-conditions.js';
import { parseTriggers, readTemplate } from '../automation/parse-triggers.js';
import { checkTemplates } from '../automation/templating.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { BINARY_SENSOR_DEVICE_CLASSES } from '../domains/binary-sensor.js';
import { SENSOR_DEVICE_CLASSES, SENSOR_STATE_CLASSES } from '../domains/sensor.js';

/** The template entity domains hearth has. */
export const TEMPLATE_DOMAINS = ['sensor', 'binary_sensor', 'switch'] as const;
export type TemplateDomain = (typeof TEMPLATE_DOMAINS)[number];

/** Home Assistant's other template platforms, refused with the reason (hearth has no such domain). */
const MISSING_DOMAINS = [
  'button',
  'number',
  'select',
  'image',
  'light',
  'cover',
  'fan',
  'lock',
  'vacuum',
  'weather',
  'alarm_control_panel',
  'event',
  'update',
];

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
}

/** One item of the `template:` list: entities, and for trigger-based ones their triggers, conditions and variables. */
export interface TemplateBlock {
  readonly triggers?: readonly Trigger[];
  readonly conditions: readonly Condition[];
  readonly variables: JsonObject;
  readonly entities: readonly TemplateEntityDefinition[];
}

/** A key that holds a template or a fixed value (Home Assistant accepts both): a fixed value becomes its text. */
function readTemplateText(r: ConfigReader, key: string): string | undefined {
  const v = r.value[key];
  if (v === undefined || v === null) {
    r.raw(key);
    return undefined;
  }
  if (typeof v === 'boolean') {
    r.raw(key);
    return v ? 'True' : 'False';
  }
  return readTemplate(r, key, false);
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
    attributes[key] = typeof item === 'string' ? item : JSON.stringify(item);
  }
  const deviceClasses: readonly string[] =
    domain === 'sensor' ? SENSOR_DEVICE_CLASSES : domain === 'binary_sensor' ? BINARY_SENSOR_DEVICE_CLASSES : ['outlet', 'switch'];
  const definition: TemplateEntityDefinition = {
    domain,
    objectId,
    uniqueId: uniqueId === undefined ? undefined : blockUniqueId === undefined ? uniqueId : `${blockUniqueId}-${uniqueId}`,
    name: name ?? rawName ?? `Template ${domain}`,
    state: readTemplateText(r, 'state'),
    availability: readTemplateText(r, 'availability'),
    icon: readTemplateText(r, 'icon'),
    picture: readTemplateText(r, 'picture'),
    attributes,
    deviceClass: r.oneOf('device_class', deviceClasses),
    unit: domain === 'sensor' ? r.string('unit_of_measurement') : undefined,
    stateClass: domain === 'sensor' ? r.oneOf('state_class', SENSOR_STATE_CLASSES) : undefined,
    delayOnMs: domain === 'binary_sensor' ? readDuration(r, 'delay_on') : undefined,
    delayOffMs: domain === 'binary_sensor' ? readDuration(r, 'delay_off') : undefined,
    turnOn: domain === 'switch' && r.has('turn_on') ? parseActions(r.raw('turn_on'), [...path, 'turn_on'], issues) : undefined,
    turnOff: domain === 'switch' && r.has('turn_off') ? parseActions(r.raw('turn_off'), [...path, 'turn_off'], issues) : undefined,
  };
  if (domain !== 'switch' && definition.state === undefined) r.problem('state', 'is required: expected a template');
  if (domain === 'switch') {
    if (!r.has('turn_on')) r.problem('turn_on', 'is required: expected the actions that turn the switch on');
    if (!r.has('turn_off')) r.problem('turn_off', 'is required: expected the actions that turn the switch off');
  }
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

/** The validator check-config and the loader run on the `template:` section. */
export const TEMPLATE_SECTION_VALIDATORS: Record<string, (value: JsonValue, path: ConfigPath, issues: ConfigIssue[]) => void> = {
  template: (value, path, issues) => {
    parseTemplateSection(value, path, issues);
  },
};
