import { domainOf } from '../../core/entity-id.js';
import { HubError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { BINARY_SENSOR_DEVICE_CLASSES } from '../../domains/binary-sensor.js';
import { BUTTON_DEVICE_CLASSES } from '../../domains/button.js';
import { COVER_DEVICE_CLASSES } from '../../domains/cover.js';
import { SENSOR_DEVICE_CLASSES } from '../../domains/sensor.js';
import { UPDATE_DEVICE_CLASSES } from '../../domains/update.js';
import { displayPrecisionOf } from '../../registry/entity-effects.js';
import { ENTITY_CATEGORIES, type EntityEntry } from '../../registry/entity-entry.js';
import type { Registries } from '../../registry/index.js';
import { convertibleUnits } from '../../util/unit-conversion.js';
import { command, requireAdmin, userOf } from './command.js';
import type { Command, Connection } from './connection.js';
import { type Check, entityId, entityIds, nullableInt, nullableStr, object, oneOf, optional, required, str, strList } from './schema.js';

/**
 * Home Assistant's registry commands (components/config/*_registry.py) over the hub's registries: the
 * request keys and result shapes are HA's. Reading needs a user, changing needs an admin, as in HA. The
 * WebSocket schema checks each key's type; the registries check values (names free, ids that exist, items
 * the configuration file locks) and throw HubError naming the field.
 */

/** Generous bound for list keys; the registries apply their own, smaller, limits with a clearer message. */
const MAX_LIST = 1000;
const list = strList(MAX_LIST);
const userOrNull = oneOf(['user'] as const, true);
const categoryOrNull = oneOf(ENTITY_CATEGORIES, true);
const objectOrNull: Check<JsonObject | null> = (value, key) => (value === null ? null : object(value, key));

/** The device classes of the domains that have a fixed list: a user's device class must be one of them. */
const DEVICE_CLASSES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['binary_sensor', BINARY_SENSOR_DEVICE_CLASSES],
  ['button', BUTTON_DEVICE_CLASSES],
  ['cover', COVER_DEVICE_CLASSES],
  ['sensor', SENSOR_DEVICE_CLASSES],
  ['update', UPDATE_DEVICE_CLASSES],
]);

function registries(conn: Connection): Registries {
  return conn.env.ctx.registries;
}

/** `list` commands: any authenticated user. */
function listCommand(items: (r: Registries) => JsonValue): Command {
  return command({}, (conn, _msg, id) => {
    userOf(conn);
    conn.sendResult(id, JSON.stringify(items(registries(conn))));
  });
}

// ---- entity registry ----------------------------------------------------------------------------

/** `config/entity_registry/list_for_display`: index of each category in the `ec` keys. */
const CATEGORY_INDEX: ReadonlyMap<string, number> = new Map(ENTITY_CATEGORIES.map((c, i) => [c, i]));
const CATEGORIES_JSON = JSON.stringify(Object.fromEntries(ENTITY_CATEGORIES.map((c, i) => [String(i), c])));

/** HA's `display_json_repr`: short keys, optional ones only when set. */
function displayJson(e: EntityEntry): JsonObject {
  const out: Record<string, JsonValue> = { ei: e.entity_id, pl: e.platform };
  if (e.area_id !== null) out.ai = e.area_id;
  out.lb = [...e.labels];
  if (e.device_id !== null) out.di = e.device_id;
  if (e.icon !== null) out.ic = e.icon;
  if (e.entity_category !== null) out.ec = CATEGORY_INDEX.get(e.entity_category) ?? null;
  if (e.hidden_by !== null) out.hb = true;
  const name = e.name || e.original_name;
  if (name) out.en = name;
  const precision = domainOf(e.entity_id) === 'sensor' ? displayPrecisionOf(e.options) : undefined;
  if (precision !== undefined) out.dp = precision;
  return out;
}

const entityListForDisplay = command({}, (conn, _msg, id) => {
  userOf(conn);
  const entities: JsonObject[] = [];
  // Disabled entities are left out, as in Home Assistant: the frontend shows only what can have a state.
  for (const entry of registries(conn).entities.entries()) if (entry.disabled_by === null) entities.push(displayJson(entry));
  conn.sendResult(id, `{"entity_categories":${CATEGORIES_JSON},"entities":${JSON.stringify(entities)}}`);
});

const entityGet = command({ entity_id: required(entityId) }, (conn, msg, id) => {
  userOf(conn);
  conn.sendResult(id, JSON.stringify(registries(conn).entities.get(msg.entity_id)));
});

const entityGetEntries = command({ entity_ids: required(entityIds(MAX_LIST)) }, (conn, msg, id) => {
  userOf(conn);
  const entities = registries(conn).entities;
  const out: Record<string, JsonValue> = {};
  for (const entityId of msg.entity_ids) out[entityId] = entities.entry(entityId) === undefined ? null : entities.get(entityId);
  conn.sendResult(id, JSON.stringify(out));
});

const entityUpdate = command(
  {
    entity_id: required(entityId),
    new_entity_id: optional(str),
    name: optional(nullableStr),
    icon: optional(nullableStr),
    area_id: optional(nullableStr),
    labels: optional(list),
    aliases: optional(list),
    disabled_by: optional(userOrNull),
    hidden_by: optional(userOrNull),
    entity_category: optional(categoryOrNull),
    device_class: optional(nullableStr),
    options_domain: optional(str),
    options: optional(objectOrNull),
  },
  (conn, msg, id) => {
    requireAdmin(conn);
    const { entity_id: target, ...changes } = msg;
    const allowed = DEVICE_CLASSES.get(domainOf(target));
    if (typeof changes.device_class === 'string' && allowed !== undefined && !allowed.includes(changes.device_class)) {
      throw new HubError(
        'invalid_format',
        `device_class: ${domainOf(target)} has no device class ${changes.device_class}; one of ${allowed.join(', ')}`,
      );
    }
    // Enabling takes effect at once (no reload), so neither `require_restart` nor `reload_delay` is sent.
    conn.sendResult(id, JSON.stringify(registries(conn).entities.update(target, changes)));
  },
);

const entityRemove = command({ entity_id: required(entityId) }, (conn, msg, id) => {
  requireAdmin(conn);
  registries(conn).entities.remove(msg.entity_id);
  conn.sendResult(id, 'null');
});

/** HA's `sensor/device_class_convertible_units` (sensor/websocket_api.py): the units an entity's settings offer. */
const sensorConvertibleUnits = command({ device_class: required(str) }, (conn, msg, id) => {
  userOf(conn);
  conn.sendResult(id, JSON.stringify({ units: convertibleUnits(msg.device_class) }));
});

// ---- device registry ----------------------------------------------------------------------------

const deviceUpdate = command(
  {
    device_id: required(str),
    name_by_user: optional(nullableStr),
    area_id: optional(nullableStr),
    labels: optional(list),
    disabled_by: optional(userOrNull),
  },
  (conn, msg, id) => {
    requireAdmin(conn);
    const { device_id: target, ...changes } = msg;
    conn.sendResult(id, JSON.stringify(registries(conn).devices.update(target, changes)));
  },
);

// ---- areas, floors, labels ----------------------------------------------------------------------

const areaFields = {
  aliases: optional(list),
  floor_id: optional(nullableStr),
  humidity_entity_id: optional(nullableStr),
  icon: optional(nullableStr),
  labels: optional(list),
  picture: optional(nullableStr),
  temperature_entity_id: optional(nullableStr),
};

const areaCreate = command({ ...areaFields, name: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  conn.sendResult(id, JSON.stringify(registries(conn).areas.create(msg)));
});

const areaUpdate = command({ ...areaFields, area_id: required(str), name: optional(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  const { area_id: target, ...changes } = msg;
  conn.sendResult(id, JSON.stringify(registries(conn).areas.update(target, changes)));
});

const areaDelete = command({ area_id: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  registries(conn).areas.delete(msg.area_id);
  // Home Assistant answers an area's deletion with the string "success" (floors and labels: null).
  conn.sendResult(id, '"success"');
});

const floorFields = { aliases: optional(list), icon: optional(nullableStr), level: optional(nullableInt) };

const floorCreate = command({ ...floorFields, name: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  conn.sendResult(id, JSON.stringify(registries(conn).floors.create(msg)));
});

const floorUpdate = command({ ...floorFields, floor_id: required(str), name: optional(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  const { floor_id: target, ...changes } = msg;
  conn.sendResult(id, JSON.stringify(registries(conn).floors.update(target, changes)));
});

const floorDelete = command({ floor_id: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  registries(conn).floors.delete(msg.floor_id);
  conn.sendResult(id, 'null');
});

const labelFields = { color: optional(nullableStr), description: optional(nullableStr), icon: optional(nullableStr) };

const labelCreate = command({ ...labelFields, name: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  conn.sendResult(id, JSON.stringify(registries(conn).labels.create(msg)));
});

const labelUpdate = command({ ...labelFields, label_id: required(str), name: optional(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  const { label_id: target, ...changes } = msg;
  conn.sendResult(id, JSON.stringify(registries(conn).labels.update(target, changes)));
});

const labelDelete = command({ label_id: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  registries(conn).labels.delete(msg.label_id);
  conn.sendResult(id, 'null');
});

/** The registry commands, by `type`. */
export const REGISTRY_COMMANDS: ReadonlyArray<readonly [string, Command]> = [
  ['config/entity_registry/list', listCommand((r) => r.entities.list())],
  ['config/entity_registry/list_for_display', entityListForDisplay],
  ['config/entity_registry/get', entityGet],
  ['config/entity_registry/get_entries', entityGetEntries],
  ['config/entity_registry/update', entityUpdate],
  ['config/entity_registry/remove', entityRemove],
  ['sensor/device_class_convertible_units', sensorConvertibleUnits],
  ['config/device_registry/list', listCommand((r) => r.devices.list())],
  ['config/device_registry/update', deviceUpdate],
  ['config/area_registry/list', listCommand((r) => r.areas.list())],
  ['config/area_registry/create', areaCreate],
  ['config/area_registry/update', areaUpdate],
  ['config/area_registry/delete', areaDelete],
  ['config/floor_registry/list', listCommand((r) => r.floors.list())],
  ['config/floor_registry/create', floorCreate],
  ['config/floor_registry/update', floorUpdate],
  ['config/floor_registry/delete', floorDelete],
  ['config/label_registry/list', listCommand((r) => r.labels.list())],
  ['config/label_registry/create', labelCreate],
  ['config/label_registry/update', labelUpdate],
  ['config/label_registry/delete', labelDelete],
];
