import { listItems, readDuration, readMapping } from '../automation/config-values.js';
import { checkTemplates } from '../automation/templating.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { setOwn } from '../core/own-keys.js';
import { BINARY_SENSOR_DEVICE_CLASSES } from '../domains/binary-sensor.js';
import { SENSOR_DEVICE_CLASSES } from '../domains/sensor.js';
import type { ParsedSections, SectionParser } from '../integration/integration.js';
import { parseTemplateSection, type TemplateBlock, type TemplateEntityDefinition, templateItemOf } from './config.js';
import { isDeviceDomain, readDeviceParts } from './device-config.js';
import { readActions, readTemplateText } from './read.js';

/**
 * Home Assistant's legacy platform lists (`sensor:`, `binary_sensor:`, `switch:`... with `- platform: template` and
 * a `sensors:`/`switches:` map), as homeassistant/components/template/{sensor,binary_sensor,switch}.py read them
 * (LEGACY_*_SCHEMA), turned into the template entities of the `template:` section. Other platforms are integrations
 * hearth does not have: they are kept as a list, and the hub says once each that it ignores them.
 */

/** The sections a legacy platform list may be in, with the key of a template platform's entities. */
export const LEGACY_SECTIONS = {
  sensor: 'sensors',
  binary_sensor: 'sensors',
  switch: 'switches',
  cover: 'covers',
  light: 'lights',
  fan: 'fans',
} as const;
export type LegacySection = keyof typeof LEGACY_SECTIONS;

/** A platform of a section's list that hearth does not run: said once at start. */
export interface IgnoredPlatform {
  readonly section: string;
  readonly index: number;
  readonly platform: string;
  readonly reason: string;
}

/** What a legacy section holds: template entities (one block) and the platforms left out. */
export interface LegacyPlatforms {
  readonly blocks: readonly TemplateBlock[];
  readonly ignored: readonly IgnoredPlatform[];
}

const SLUG = /^[a-z0-9_]+$/;

/** One entity of a `sensors:`/`switches:` map, as Home Assistant's LEGACY_*_SCHEMA. */
function parseLegacyEntity(
  domain: LegacySection,
  objectId: string,
  value: JsonValue,
  path: ConfigPath,
  issues: ConfigIssue[],
): TemplateEntityDefinition | undefined {
  const r = ConfigReader.of(value, path, issues);
  if (!isJsonObject(value)) return undefined;
  const friendly = r.string('friendly_name');
  const nameTemplate = readTemplateText(r, 'friendly_name_template');
  // hearth does not render names: a templated friendly name falls back to friendly_name, then the key (as HA's default).
  const name = nameTemplate !== undefined && !nameTemplate.includes('{') ? nameTemplate : (friendly ?? objectId);
  const attributes: Record<string, string> = {};
  for (const [key, item] of Object.entries(readMapping(r, 'attribute_templates') ?? {})) {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
      issues.push({ path: [...path, 'attribute_templates', key], message: `expected a template, got ${kindOf(item)}` });
      continue;
    }
    checkTemplates(item, [...path, 'attribute_templates', key], issues);
    setOwn(attributes, key, typeof item === 'string' ? item : JSON.stringify(item));
  }
  // Deprecated in Home Assistant and without effect: the entities a template reads are found by rendering it.
  r.raw('entity_id');
  const classes = domain === 'sensor' ? SENSOR_DEVICE_CLASSES : domain === 'binary_sensor' ? BINARY_SENSOR_DEVICE_CLASSES : undefined;
  // A cover's, light's or fan's legacy keys are Home Assistant's LEGACY_FIELDS of its modern ones.
  const device = isDeviceDomain(domain) ? readDeviceParts(domain, r, true) : undefined;
  const state = device !== undefined ? device.state : readTemplateText(r, 'value_template');
  const definition: TemplateEntityDefinition = {
    domain,
    objectId,
    uniqueId: r.string('unique_id'),
    name,
    state,
    availability: readTemplateText(r, 'availability_template'),
    icon: readTemplateText(r, 'icon_template'),
    picture: readTemplateText(r, 'entity_picture_template'),
    attributes,
    deviceClass: classes === undefined ? device?.deviceClass : r.oneOf('device_class', classes),
    unit: domain === 'sensor' ? r.string('unit_of_measurement') : undefined,
    delayOnMs: domain === 'binary_sensor' ? readDuration(r, 'delay_on') : undefined,
    delayOffMs: domain === 'binary_sensor' ? readDuration(r, 'delay_off') : undefined,
    turnOn: readActions(r, 'turn_on', domain === 'switch'),
    turnOff: readActions(r, 'turn_off', domain === 'switch'),
    optimistic: device?.optimistic,
    device,
  };
  if ((domain === 'sensor' || domain === 'binary_sensor') && state === undefined)
    r.problem('value_template', 'is required: expected a template');
  if (domain === 'switch') {
    if (!r.has('turn_on')) r.problem('turn_on', 'is required: expected the actions that turn the switch on');
    if (!r.has('turn_off')) r.problem('turn_off', 'is required: expected the actions that turn the switch off');
  }
  r.rejectUnknown();
  return definition;
}

/** Reads one legacy platform section (`sensor:`: a list of `- platform: ...` items, or one). */
export function parseLegacySection(
  section: LegacySection,
  value: JsonValue | undefined,
  path: ConfigPath,
  issues: ConfigIssue[],
): LegacyPlatforms {
  if (value === undefined || value === null) return { blocks: [], ignored: [] };
  if (!Array.isArray(value) && !isJsonObject(value)) {
    issues.push({ path, message: `expected a list of platforms (- platform: template), got ${kindOf(value)}` });
    return { blocks: [], ignored: [] };
  }
  const entities: TemplateEntityDefinition[] = [];
  const ignored: IgnoredPlatform[] = [];
  listItems(value, path).forEach((item, index) => {
    if (!isJsonObject(item.value)) {
      issues.push({ path: item.path, message: `expected a platform (a mapping with platform: ...), got ${kindOf(item.value)}` });
      return;
    }
    const platform = item.value.platform;
    if (typeof platform !== 'string' || platform === '') {
      issues.push({ path: [...item.path, 'platform'], message: 'is required: expected the name of the platform (e.g. template)' });
      return;
    }
    if (platform !== 'template') {
      ignored.push({ section, index, platform, reason: `hearth has no ${platform} integration` });
      return;
    }
    const key = LEGACY_SECTIONS[section];
    const r = ConfigReader.of(item.value, item.path, issues);
    r.string('platform');
    const map = r.child(key);
    if (map === undefined) r.problem(key, `is required: expected a mapping of object ids to template ${section}s`);
    for (const [id, raw] of Object.entries(map?.value ?? {})) {
      map?.raw(id);
      const at = [...item.path, key, id];
      if (!SLUG.test(id)) {
        issues.push({ path: at, message: `invalid object id ${JSON.stringify(id)}: expected lower-case letters, digits and underscores` });
        continue;
      }
      const def = parseLegacyEntity(section, id, raw, at, issues);
      if (def !== undefined) entities.push(def);
    }
    r.rejectUnknown();
  });
  return { blocks: entities.length === 0 ? [] : [{ conditions: [], variables: {}, entities }], ignored };
}

/** The item a problem is in: one entity of a legacy map (`sensor[0].sensors.x`), one platform, or a template one. */
export function legacyItemOf(path: ConfigPath): ConfigPath {
  const section = String(path[0]);
  if (!Object.hasOwn(LEGACY_SECTIONS, section)) return templateItemOf(path);
  if (typeof path[1] !== 'number') return path.slice(0, 1);
  return path[2] === LEGACY_SECTIONS[section as LegacySection] && path.length > 3 ? path.slice(0, 4) : path.slice(0, 2);
}

/** The sections of the template part: `template:` and the legacy platform lists. */
export type TemplateSections = { readonly template: SectionParser<TemplateBlock[]> } & {
  readonly [K in LegacySection]: SectionParser<LegacyPlatforms>;
};

export const TEMPLATE_SECTIONS: TemplateSections = {
  template: parseTemplateSection,
  ...(Object.fromEntries(
    (Object.keys(LEGACY_SECTIONS) as LegacySection[]).map((section): [LegacySection, SectionParser<LegacyPlatforms>] => [
      section,
      (value, path, issues) => parseLegacySection(section, value, path, issues),
    ]),
  ) as { readonly [K in LegacySection]: SectionParser<LegacyPlatforms> }),
};

/** Every block of the sections as read, each platform hearth does not run named once in the log. */
export function collectBlocks(sections: ParsedSections<TemplateSections>, log: Logger): TemplateBlock[] {
  const blocks = [...sections.template];
  for (const section of Object.keys(LEGACY_SECTIONS) as LegacySection[]) {
    const legacy = sections[section];
    blocks.push(...legacy.blocks);
    for (const i of legacy.ignored) {
      log.warn(
        { section: i.section, platform: i.platform },
        '%s[%s] (platform: %s) is ignored: %s',
        i.section,
        String(i.index),
        i.platform,
        i.reason,
      );
    }
  }
  return blocks;
}
