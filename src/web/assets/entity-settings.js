// @ts-check
/**
 * The settings dialog of one entity, as Home Assistant's: name, entity id, icon, area, labels, enabled and
 * visible; for a sensor the unit it is shown in and its display precision (registry options, the hub converts
 * the state), for a binary sensor or a cover what it shows as (its device class). One
 * `config/entity_registry/update` saves it all.
 */

import { checkedOf, command, FormDialog, html, inputValue, isAdmin, store, tryCommand } from './app-common.js';
import { formatNumber, humanize } from './format.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {import('./app-common.js').Registries} Registries */

/** The device classes a user may choose, per domain, as Home Assistant's entity settings offer them. */
const DEVICE_CLASSES = /** @type {Record<string, readonly string[]>} */ ({
  binary_sensor: [
    'battery',
    'battery_charging',
    'carbon_monoxide',
    'cold',
    'connectivity',
    'door',
    'garage_door',
    'gas',
    'heat',
    'light',
    'lock',
    'moisture',
    'motion',
    'moving',
    'occupancy',
    'opening',
    'plug',
    'power',
    'presence',
    'problem',
    'running',
    'safety',
    'smoke',
    'sound',
    'tamper',
    'update',
    'vibration',
    'window',
  ],
  cover: ['awning', 'blind', 'curtain', 'damper', 'door', 'garage', 'gate', 'shade', 'shutter', 'window'],
});

/** Display precisions offered (HA's frontend offers 0 to 6 decimals). */
const PRECISIONS = [0, 1, 2, 3, 4, 5, 6];

/** @param {string} id */
function domainOf(id) {
  return id.slice(0, id.indexOf('.'));
}

/** @param {{ entry: any, reg: Registries, onClose: () => void }} props */
export function EntitySettings({ entry, reg, onClose }) {
  const st = store.get(entry.entity_id);
  const domain = domainOf(entry.entity_id);
  const attrs = st?.attributes ?? {};
  const [name, setName] = useState(entry.name ?? '');
  const [entityId, setEntityId] = useState(entry.entity_id);
  const [icon, setIcon] = useState(entry.icon ?? '');
  const [area, setArea] = useState(entry.area_id ?? '');
  const [labels, setLabels] = useState(/** @type {string[]} */ (entry.labels ?? []));
  const [hidden, setHidden] = useState(entry.hidden_by !== null);
  const [enabled, setEnabled] = useState(entry.disabled_by === null);
  // The extended entry (device classes, options) and, for a sensor, the units its device class converts between.
  const [full, setFull] = useState(/** @type {any} */ (null));
  const [units, setUnits] = useState(/** @type {string[]} */ ([]));
  const [unit, setUnit] = useState('');
  const [precision, setPrecision] = useState('');
  const [deviceClass, setDeviceClass] = useState('');
  useEffect(() => {
    command({ type: 'config/entity_registry/get', entity_id: entry.entity_id }).then(
      async (/** @type {any} */ got) => {
        setFull(got);
        const sensorOptions = got.options?.sensor ?? {};
        setDeviceClass(got.device_class ?? '');
        setPrecision(typeof sensorOptions.display_precision === 'number' ? String(sensorOptions.display_precision) : '');
        const shownUnit = typeof attrs.unit_of_measurement === 'string' ? attrs.unit_of_measurement : '';
        setUnit(sensorOptions.unit_of_measurement ?? shownUnit);
        const dc = got.device_class ?? got.original_device_class ?? attrs.device_class;
        if (domain === 'sensor' && typeof dc === 'string') {
          const reply = await command({ type: 'sensor/device_class_convertible_units', device_class: dc });
          // As in Home Assistant, the unit can change only when the sensor's own unit is one the class converts.
          if (Array.isArray(reply?.units) && reply.units.includes(shownUnit)) setUnits(reply.units);
        }
      },
      () => {},
    );
  }, [entry.entity_id]);
  const deviceArea = reg.devices.find((d) => d.id === entry.device_id)?.area_id;
  const numeric = st !== undefined && st.state.trim() !== '' && Number.isFinite(Number(st.state));
  const save = async () => {
    /** @type {Record<string, unknown>} */
    const changes = {
      type: 'config/entity_registry/update',
      entity_id: entry.entity_id,
      name: name.trim() === '' ? null : name.trim(),
      icon: icon.trim() === '' ? null : icon.trim(),
      area_id: area === '' ? null : area,
      labels,
      hidden_by: hidden ? 'user' : null,
      disabled_by: enabled ? null : 'user',
    };
    if (entityId !== entry.entity_id) changes.new_entity_id = entityId;
    if (full !== null && Object.hasOwn(DEVICE_CLASSES, domain) && deviceClass !== (full.device_class ?? ''))
      changes.device_class = deviceClass === '' ? null : deviceClass;
    const before = full?.options?.sensor ?? {};
    const dp = precision === '' ? null : Number(precision);
    if (
      full !== null &&
      domain === 'sensor' &&
      ((units.length > 0 && unit !== (before.unit_of_measurement ?? attrs.unit_of_measurement)) ||
        dp !== (before.display_precision ?? null))
    ) {
      changes.options_domain = 'sensor';
      changes.options = { ...before, ...(units.length > 0 ? { unit_of_measurement: unit } : {}), display_precision: dp };
    }
    return (await tryCommand(changes)) !== undefined;
  };
  const classes = Object.hasOwn(DEVICE_CLASSES, domain) ? DEVICE_CLASSES[domain] : undefined;
  const original = full?.original_device_class;
  return html`<${FormDialog} title=${`${entry.name ?? entry.original_name ?? attrs.friendly_name ?? entry.entity_id} settings`} onClose=${onClose} onSubmit=${isAdmin ? save : undefined}>
    <label>Name<input name="name" value=${name} placeholder=${entry.original_name ?? attrs.friendly_name ?? ''} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    <label>Entity ID<input name="entity_id" value=${entityId} pattern="[a-z0-9_]+\\.[a-z0-9_]+" onInput=${(/** @type {Event} */ e) => setEntityId(inputValue(e))} /></label>
    <label>Icon<input name="icon" value=${icon} placeholder="mdi:lamp" onInput=${(/** @type {Event} */ e) => setIcon(inputValue(e))} /></label>
    <label>Area<select name="area" value=${area} onChange=${(/** @type {Event} */ e) => setArea(inputValue(e))}>
      <option value="">${deviceArea ? `The device's (${reg.areas.find((a) => a.area_id === deviceArea)?.name ?? deviceArea})` : 'No area'}</option>
      ${reg.areas.map((a) => html`<option value=${a.area_id}>${a.name}</option>`)}
    </select></label>
    <fieldset class="chips"><legend>Labels</legend>${reg.labels.length === 0 ? html`<span class="muted">No labels yet (see Labels).</span>` : null}
      ${reg.labels.map(
        (l) =>
          html`<label class="check" key=${l.label_id}><input type="checkbox" checked=${labels.includes(l.label_id)} onChange=${(
            /** @type {Event} */ e,
          ) => setLabels((list) => (checkedOf(e) ? [...list, l.label_id] : list.filter((x) => x !== l.label_id)))} /> ${l.name}</label>`,
      )}
    </fieldset>
    ${
      classes !== undefined && full !== null
        ? html`<label>Show as<select name="device_class" value=${deviceClass} onChange=${(/** @type {Event} */ e) => setDeviceClass(inputValue(e))}>
        <option value="">${original ? `Default (${humanize(original)})` : 'Default'}</option>
        ${classes.map((c) => html`<option value=${c}>${humanize(c)}</option>`)}
      </select></label>`
        : null
    }
    ${
      units.length > 0
        ? html`<label>Unit of measurement<select name="unit_of_measurement" value=${unit} onChange=${(/** @type {Event} */ e) => setUnit(inputValue(e))}>
        ${units.map((u) => html`<option value=${u}>${u}</option>`)}
      </select></label>`
        : null
    }
    ${
      domain === 'sensor' && full !== null && numeric
        ? html`<label>Display precision<select name="display_precision" value=${precision} onChange=${(/** @type {Event} */ e) => setPrecision(inputValue(e))}>
        <option value="">Default (${st?.state})</option>
        ${PRECISIONS.map((p) => html`<option value=${String(p)}>${formatNumber(Number(st?.state), p)}</option>`)}
      </select></label>`
        : null
    }
    <label class="check"><input type="checkbox" name="enabled" checked=${enabled} onChange=${(/** @type {Event} */ e) => setEnabled(checkedOf(e))} /> Enabled</label>
    <label class="check"><input type="checkbox" name="visible" checked=${!hidden} onChange=${(/** @type {Event} */ e) => setHidden(!checkedOf(e))} /> Visible</label>
    <p class="muted">State: ${st?.state ?? 'none'}${typeof attrs.unit_of_measurement === 'string' ? ` ${attrs.unit_of_measurement}` : ''} · platform ${entry.platform}</p>
  </${FormDialog}>`;
}
