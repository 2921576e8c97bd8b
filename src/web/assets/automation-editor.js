// @ts-check
/**
 * The automation and script editor: a form for the name, description, mode and each trigger, condition and
 * action of the kinds hearth runs (any other kind is edited as YAML in place), or the whole item as YAML. Saved
 * through Home Assistant's REST `POST /api/config/<automation|script>/config/<id>` after WebSocket
 * `validate_config`; the hub writes automations.yaml or scripts.yaml and reloads.
 */

import { command, html, inputValue, rest, toast, tryCommand, useStates } from './app-common.js';
import { useEffect, useState } from './vendor/hooks.js';
import { parse, stringify } from './vendor/yaml/index.js';

/** @typedef {Record<string, any>} Item */
/** @typedef {'triggers' | 'conditions' | 'actions'} Part */

/** The form's kinds per part: the key naming the kind, and its fields (`target.entity_id` nests). */
const KINDS = {
  triggers: {
    key: 'trigger',
    kinds: {
      state: ['entity_id', 'from', 'to', 'for'],
      numeric_state: ['entity_id', 'above', 'below', 'for'],
      time: ['at'],
      time_pattern: ['hours', 'minutes', 'seconds'],
      sun: ['event', 'offset'],
      event: ['event_type'],
      homeassistant: ['event'],
      template: ['value_template'],
      mqtt: ['topic', 'payload'],
    },
  },
  conditions: {
    key: 'condition',
    kinds: {
      state: ['entity_id', 'state', 'for'],
      numeric_state: ['entity_id', 'above', 'below'],
      time: ['after', 'before'],
      sun: ['after', 'before'],
      template: ['value_template'],
    },
  },
  actions: {
    key: '',
    kinds: {
      action: ['action', 'target.entity_id', 'data'],
      delay: ['delay'],
      wait_template: ['wait_template', 'timeout'],
      event: ['event', 'event_data'],
      stop: ['stop'],
    },
  },
};

const LABELS = /** @type {Record<string, string>} */ ({
  entity_id: 'Entity',
  'target.entity_id': 'Target entities',
  action: 'Action (domain.service)',
  data: 'Data (YAML)',
  event_data: 'Event data (YAML)',
  value_template: 'Template',
  wait_template: 'Wait until (template)',
});

/** What kind an item is, for the form: its trigger/condition key, or the action's key. @param {Part} part @param {Item} item */
function kindOf(part, item) {
  if (part === 'triggers') return String(item.trigger ?? item.platform ?? '');
  if (part === 'conditions') return String(item.condition ?? '');
  return Object.keys(KINDS.actions.kinds).find((k) => k in item) ?? (item.service !== undefined ? 'action' : '');
}

/** @param {Item} item @param {string} field */
function fieldValue(item, field) {
  const v = field === 'target.entity_id' ? item.target?.entity_id : item[field];
  if (v === undefined || v === null) return '';
  if (field === 'data' || field === 'event_data') return stringify(v).trim();
  return Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** @param {Item} item @param {string} field @param {string} text */
function withField(item, field, text) {
  const next = { ...item };
  const value = text.trim();
  if (field === 'target.entity_id') {
    const ids = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (ids.length === 0) delete next.target;
    else next.target = { ...(next.target ?? {}), entity_id: ids.length === 1 ? ids[0] : ids };
    return next;
  }
  if (value === '') {
    delete next[field];
    return next;
  }
  if (field === 'data' || field === 'event_data') {
    try {
      next[field] = parse(value) ?? {};
    } catch {
      next[field] = value;
    }
  } else if (field === 'entity_id' && value.includes(',')) next[field] = value.split(',').map((s) => s.trim());
  else if (['above', 'below'].includes(field) && Number.isFinite(Number(value))) next[field] = Number(value);
  else next[field] = value;
  return next;
}

const ENTITY_LIST = 'entity-ids';

/**
 * A field that keeps what is typed (the item is updated on every keystroke, but the text is not re-derived from
 * it, so "light.a, " or "brightness:" stay as typed).
 * @param {{ name: string, initial: string, multiline: boolean, onText: (text: string) => void }} props
 */
function Field({ name, initial, multiline, onText }) {
  const [text, setText] = useState(initial);
  const input = (/** @type {Event} */ e) => {
    setText(inputValue(e));
    onText(inputValue(e));
  };
  return multiline
    ? html`<textarea rows="3" name=${name} value=${text} onInput=${input}></textarea>`
    : html`<input name=${name} list=${name.includes('entity_id') ? ENTITY_LIST : undefined} value=${text} onInput=${input} />`;
}

/** One trigger, condition or action: its kind's fields, or YAML for a kind the form does not know. @param {{ part: Part, item: Item, index: number, onChange: (item: Item | null) => void }} props */
function ItemForm({ part, item, index, onChange }) {
  const kind = kindOf(part, item);
  /** @type {Record<string, string[]>} */
  const kinds = KINDS[part].kinds;
  const fields = kinds[kind];
  const [text, setText] = useState(() => stringify(item).trim());
  const [problem, setProblem] = useState('');
  const title = `${part === 'triggers' ? 'Trigger' : part === 'conditions' ? 'Condition' : 'Action'} ${index + 1}`;
  return html`<fieldset class="panel item" data-part=${part} data-index=${index}>
    <legend>${title}: ${kind || 'YAML'}</legend>
    ${
      fields === undefined
        ? html`<label>YAML<textarea rows="5" aria-label=${`${title} YAML`} value=${text} onInput=${(/** @type {Event} */ e) => {
            setText(inputValue(e));
            try {
              const v = parse(inputValue(e));
              setProblem('');
              if (v !== null && typeof v === 'object') onChange(v);
            } catch (err) {
              setProblem(/** @type {Error} */ (err).message.split('\n')[0] ?? '');
            }
          }}></textarea></label>${problem ? html`<p class="error">${problem}</p>` : null}`
        : fields.map(
            (f) =>
              html`<label key=${f}>${LABELS[f] ?? f.replace(/_/g, ' ')}${
                f === 'data' || f === 'event_data' || f.endsWith('template')
                  ? html`<${Field} multiline=${true} name=${f} initial=${fieldValue(item, f)} onText=${(/** @type {string} */ text) => onChange(withField(item, f, text))} />`
                  : html`<${Field} multiline=${false} name=${f} initial=${fieldValue(item, f)} onText=${(/** @type {string} */ text) => onChange(withField(item, f, text))} />`
              }</label>`,
          )
    }
    <div class="actions"><button type="button" class="danger" onClick=${() => onChange(null)}>Remove</button></div>
  </fieldset>`;
}

/** A new item of a kind. @param {Part} part @param {string} kind */
function newItem(part, kind) {
  if (part === 'actions') return kind === 'action' ? { action: '', target: {} } : kind === 'delay' ? { delay: '00:00:05' } : { [kind]: '' };
  return { [KINDS[part].key]: kind };
}

/** @param {{ part: Part, items: Item[], onChange: (update: (items: Item[]) => Item[]) => void }} props */
function PartForm({ part, items, onChange }) {
  const label = part === 'triggers' ? 'trigger' : part === 'conditions' ? 'condition' : 'action';
  return html`<section class="part" data-part=${part}>
    <h2>${label.charAt(0).toUpperCase() + label.slice(1)}s</h2>
    ${items.map(
      (item, i) =>
        html`<${ItemForm} key=${`${i}:${kindOf(part, item)}`} part=${part} item=${item} index=${i} onChange=${(
          /** @type {Item | null} */ next,
        ) => onChange((list) => (next === null ? list.filter((_x, j) => j !== i) : list.map((x, j) => (j === i ? next : x))))} />`,
    )}
    <label class="add">Add ${label}<select aria-label=${`Add ${label}`} value="" onChange=${(/** @type {Event} */ e) => {
      const kind = inputValue(e);
      /** @type {HTMLSelectElement} */ (e.currentTarget).value = '';
      if (kind === 'yaml')
        onChange((list) => [...list, part === 'actions' ? { variables: {} } : { [KINDS[part].key]: 'and', conditions: [] }]);
      else if (kind !== '') onChange((list) => [...list, newItem(part, kind)]);
    }}><option value="">Choose a kind…</option>${Object.keys(KINDS[part].kinds).map((k) => html`<option value=${k}>${k.replace(/_/g, ' ')}</option>`)}<option value="yaml">other (YAML)</option></select></label>
  </section>`;
}

/** The editor's model: HA's keys, with the pre-2024.10 singular ones read as the plural. @param {Item} config */
function normalized(config) {
  const out = { ...config };
  for (const [old, now] of [
    ['trigger', 'triggers'],
    ['condition', 'conditions'],
    ['action', 'actions'],
  ]) {
    if (out[now] === undefined && out[old] !== undefined) out[now] = out[old];
    delete out[old];
    if (out[now] !== undefined && !Array.isArray(out[now])) out[now] = [out[now]];
  }
  return out;
}

const BLANK = {
  automation: { alias: 'New automation', description: '', triggers: [], conditions: [], actions: [], mode: 'single' },
  script: { alias: 'New script', sequence: [], mode: 'single' },
};

/** @param {{ domain: 'automation' | 'script', itemId: string }} props */
export function Editor({ domain, itemId }) {
  const states = useStates();
  const isNew = itemId === 'new';
  const [id] = useState(() => (isNew ? (domain === 'automation' ? String(Date.now()) : `script_${Date.now()}`) : itemId));
  const [config, setConfig] = useState(/** @type {Item | null} */ (isNew ? BLANK[domain] : null));
  const [yamlMode, setYamlMode] = useState(false);
  const [yamlText, setYamlText] = useState('');
  const [problems, setProblems] = useState(/** @type {string[]} */ ([]));
  const [missing, setMissing] = useState(false);
  const [saved, setSaved] = useState(!isNew);
  useEffect(() => {
    if (isNew) return;
    rest('GET', `/api/config/${domain}/config/${encodeURIComponent(id)}`).then(
      (c) => setConfig(domain === 'automation' ? normalized(c) : c),
      (err) => (err.status === 404 ? setMissing(true) : toast(err.message)),
    );
  }, []);
  if (missing)
    return html`<p class="notice">This ${domain} is not in the editor's file (${domain}s.yaml): it comes from the configuration file. Move it into ${domain}s.yaml to edit it here.</p>`;
  if (config === null) return html`<p class="loading">Loading…</p>`;

  const current = () => {
    if (!yamlMode) return config;
    const v = parse(yamlText);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('The YAML must be a mapping (alias:, triggers:, …)');
    return /** @type {Item} */ (v);
  };
  const switchMode = (/** @type {boolean} */ yaml) => {
    try {
      if (yaml) setYamlText(stringify(config));
      else setConfig(domain === 'automation' ? normalized(current()) : current());
      setYamlMode(yaml);
      setProblems([]);
    } catch (err) {
      setProblems([/** @type {Error} */ (err).message]);
    }
  };
  const save = async () => {
    /** @type {Item} */
    let item;
    try {
      item = current();
    } catch (err) {
      return setProblems([/** @type {Error} */ (err).message]);
    }
    const check =
      domain === 'automation'
        ? {
            triggers: item.triggers ?? item.trigger ?? [],
            conditions: item.conditions ?? item.condition ?? [],
            actions: item.actions ?? item.action ?? [],
          }
        : { actions: item.sequence ?? [] };
    const answer = await tryCommand({ type: 'validate_config', ...check });
    if (answer === undefined) return;
    const wrong = Object.entries(answer)
      .filter(([, r]) => !(/** @type {any} */ (r).valid))
      .map(([k, r]) => `${k}: ${/** @type {any} */ (r).error}`);
    setProblems(wrong);
    if (wrong.length > 0) return;
    try {
      await rest('POST', `/api/config/${domain}/config/${encodeURIComponent(id)}`, item);
    } catch (err) {
      return setProblems([/** @type {Error} */ (err).message]);
    }
    setSaved(true);
    toast(`Saved and reloaded: ${item.alias ?? id}`);
    if (isNew) history.replaceState(null, '', `/config/${domain}/edit/${encodeURIComponent(id)}`);
  };
  const entityId = states
    .ids()
    .find(
      (e) => e.startsWith(`${domain}.`) && (domain === 'automation' ? String(states.get(e)?.attributes.id) === id : e === `script.${id}`),
    );
  const run = () =>
    entityId !== undefined &&
    command({
      type: 'call_service',
      domain,
      service: domain === 'automation' ? 'trigger' : 'turn_on',
      service_data: domain === 'automation' ? { skip_condition: true } : {},
      target: { entity_id: entityId },
    }).then(
      () => toast('Started'),
      (/** @type {Error} */ err) => toast(err.message),
    );
  // Updates apply to the latest config: two fields changing in one tick (a blur, then a click) both land.
  const set = (/** @type {string} */ key, /** @type {unknown} */ value) => setConfig((c) => ({ ...c, [key]: value }));
  const update = (/** @type {string} */ key, /** @type {(items: Item[]) => Item[]} */ fn) =>
    setConfig((c) => ({ ...c, [key]: fn(c?.[key] ?? []) }));
  const parts = /** @type {Part[]} */ (domain === 'automation' ? ['triggers', 'conditions', 'actions'] : ['actions']);

  return html`<p><a href=${`/config/${domain}/dashboard`}>← ${domain === 'automation' ? 'Automations' : 'Scripts'}</a></p>
  <div class="bar editor-bar">
    <div class="tabs" role="group" aria-label="Editor mode">
      <button type="button" aria-pressed=${!yamlMode} onClick=${() => switchMode(false)}>Form</button>
      <button type="button" aria-pressed=${yamlMode} onClick=${() => switchMode(true)}>YAML</button>
    </div>
    <span class="grow"></span>
    <button type="button" class="primary" onClick=${save}>Save</button>
    ${saved && entityId !== undefined ? html`<button type="button" onClick=${run}>Run</button> <a class="button" href=${`/config/${domain}/trace/${encodeURIComponent(id)}`}>Traces</a>` : null}
  </div>
  ${problems.length > 0 ? html`<div class="problems" role="alert"><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : null}
  <datalist id=${ENTITY_LIST}>${states.ids().map((e) => html`<option value=${e}></option>`)}</datalist>
  ${
    yamlMode
      ? html`<label>YAML<textarea class="yaml" name="yaml" rows="24" spellcheck="false" value=${yamlText} onInput=${(/** @type {Event} */ e) => setYamlText(inputValue(e))}></textarea></label>`
      : html`<div class="panel form-grid">
      <label>Name<input name="alias" value=${config.alias ?? ''} onInput=${(/** @type {Event} */ e) => set('alias', inputValue(e))} /></label>
      <label>Description<input name="description" value=${config.description ?? ''} onInput=${(/** @type {Event} */ e) => set('description', inputValue(e))} /></label>
      <label>Mode<select name="mode" value=${config.mode ?? 'single'} onChange=${(/** @type {Event} */ e) => set('mode', inputValue(e))}>${['single', 'restart', 'queued', 'parallel'].map((m) => html`<option value=${m}>${m}</option>`)}</select></label>
    </div>
    ${parts.map(
      (p) =>
        html`<${PartForm} key=${p} part=${p} items=${(domain === 'script' ? config.sequence : config[p]) ?? []} onChange=${(/** @type {(items: Item[]) => Item[]} */ fn) => update(domain === 'script' ? 'sequence' : p, fn)} />`,
    )}`
  }`;
}
