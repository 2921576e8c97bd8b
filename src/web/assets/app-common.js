// @ts-check
/**
 * What the settings, insight and developer-tools pages share: the page's WebSocket connection, a live copy of
 * the states and the registries, a bearer token for the config REST endpoints, a modal form dialog, and the
 * mount that renders a page under its heading with the link status and the error toasts.
 */

import { EntityStore } from './entity-store.js';
import { html } from './html.js';
import { LinkStatus, pageConnection, Toasts, toast } from './page-session.js';
import { useEffect, useRef, useState } from './vendor/hooks.js';
import { render } from './vendor/preact.js';

export { html, toast };
export const hub = pageConnection(location.pathname);
export const store = new EntityStore();
export const isAdmin = document.querySelector('meta[name="hearth-admin"]')?.getAttribute('content') === 'true';
export const myUserId = document.querySelector('meta[name="hearth-user"]')?.getAttribute('content') ?? '';

/** Resolves once the connection is live (again after a reconnect). */
let live = /** @type {Promise<void>} */ (new Promise(() => {}));
let setLive = () => {};
const renew = () => {
  live = new Promise((resolve) => {
    setLive = resolve;
  });
};
renew();
const shown = hub.onState;
hub.onState = (state) => {
  shown(state);
  if (state === 'live') setLive();
  else if (state === 'offline') renew();
};

/** A command, sent once the connection is live. @param {object} message @returns {Promise<any>} */
export function command(message) {
  return live.then(() => hub.command(message));
}

/**
 * A subscription for as long as the caller wants it (a template render, an event type): resolves with its stop
 * function once the hub accepted it; a refusal rejects.
 * @param {object} message @param {(event: any) => void} handler @returns {Promise<() => void>}
 */
export async function subscribeOnce(message, handler) {
  await live;
  const id = hub.nextId;
  hub.handlers.set(id, handler);
  try {
    await hub.command(message);
  } catch (err) {
    hub.handlers.delete(id);
    throw err;
  }
  return () => {
    hub.handlers.delete(id);
    hub.command({ type: 'unsubscribe_events', subscription: id }).catch(() => {});
  };
}

/** Runs a command; a refusal shows as a toast and resolves undefined. @param {object} message */
export function tryCommand(message) {
  return command(message).catch((/** @type {Error} */ err) => {
    toast(err.message);
    return undefined;
  });
}

/**
 * A REST call with a fresh access token (the editors' `/api/config/...` endpoints); a JSON body's `message` is
 * thrown as the error.
 * @param {string} method @param {string} path @param {unknown} [body]
 */
export async function rest(method, path, body) {
  const token = await hub.token();
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  /** @type {any} */
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  if (!res.ok) throw Object.assign(new Error(parsed?.message ?? `${res.status} ${text}`), { status: res.status });
  return parsed;
}

/** @typedef {{ areas: any[], floors: any[], labels: any[], devices: any[], entities: any[] }} Registries */
const REGISTRY_TYPES = /** @type {const} */ (['areas', 'floors', 'labels', 'devices', 'entities']);
const REGISTRY_COMMANDS = {
  areas: 'config/area_registry/list',
  floors: 'config/floor_registry/list',
  labels: 'config/label_registry/list',
  devices: 'config/device_registry/list',
  entities: 'config/entity_registry/list',
};

/**
 * The registries, read again whenever one changes (Home Assistant's `*_registry_updated` events).
 * @returns {Registries | null}
 */
export function useRegistries() {
  const [reg, setReg] = useState(/** @type {Registries | null} */ (null));
  useEffect(() => {
    let timer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
    const load = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const lists = await Promise.all(REGISTRY_TYPES.map((k) => command({ type: REGISTRY_COMMANDS[k] }).catch(() => [])));
        setReg(/** @type {Registries} */ (Object.fromEntries(REGISTRY_TYPES.map((k, i) => [k, lists[i]]))));
      }, 100);
    };
    for (const type of [
      'area_registry_updated',
      'device_registry_updated',
      'entity_registry_updated',
      'floor_registry_updated',
      'label_registry_updated',
    ]) {
      hub.subscribe(type, { type: 'subscribe_events', event_type: type }, load, type === 'area_registry_updated' ? load : undefined);
    }
  }, []);
  return reg;
}

/** Re-renders with every state change (at most once per frame). */
export function useStates() {
  const [, setVersion] = useState(0);
  useEffect(() => {
    hub.subscribe(
      'entities',
      { type: 'subscribe_entities' },
      (event) => {
        store.apply(event);
        setVersion((v) => v + 1);
      },
      () => store.beginSnapshot(),
    );
  }, []);
  return store;
}

/** An entity's display name: the registry's name, the state's friendly_name, or the id. @param {string} id */
export function entityName(id) {
  return String(store.get(id)?.attributes.friendly_name ?? id);
}

/**
 * A modal form (a native <dialog>): Escape or Cancel closes it; `onSubmit` returning false keeps it open.
 * @param {{ title: string, onClose: () => void, onSubmit?: () => Promise<boolean | void> | boolean | void, submitLabel?: string, children?: any, extra?: any }} props
 */
export function FormDialog({ title, onClose, onSubmit, submitLabel = 'Save', children, extra }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const d = ref.current;
    if (d !== null && !d.open) d.showModal();
  }, []);
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (onSubmit === undefined) return onClose();
    setBusy(true);
    try {
      if ((await onSubmit()) !== false) onClose();
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<dialog class="form" ref=${ref} aria-label=${title} onClose=${onClose} onCancel=${onClose}>
    <form class="form-grid" onSubmit=${submit}>
      <h2>${title}</h2>
      ${children}
      <div class="actions">${extra}<button type="button" onClick=${onClose}>Cancel</button>${onSubmit === undefined ? null : html`<button type="submit" class="primary" disabled=${busy}>${submitLabel}</button>`}</div>
    </form>
  </dialog>`;
}

/** @param {Event} e */
export function inputValue(e) {
  return /** @type {HTMLInputElement} */ (e.currentTarget).value;
}

/** @param {Event} e */
export function checkedOf(e) {
  return /** @type {HTMLInputElement} */ (e.currentTarget).checked;
}

/** A comparison for sort by a text key. @param {string} a @param {string} b */
export function byText(a, b) {
  return a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
}

/** Renders `App` in place of the page's loading line, under the heading, and connects. @param {() => any} App */
export function mount(App) {
  const root = document.getElementById('app');
  if (root === null) return;
  root.querySelector('.loading')?.remove();
  root.querySelector('noscript')?.remove();
  const slot = document.createElement('div');
  slot.className = 'page-body';
  root.append(slot);
  render(html`<${LinkStatus} /><${App} /><${Toasts} />`, slot);
  hub.connect();
}

/** A relative time ("3 min ago") for an ISO time or epoch seconds. @param {string | number | null | undefined} when */
export function ago(when) {
  if (when === null || when === undefined) return 'never';
  const ms = typeof when === 'number' ? when * 1000 : Date.parse(when);
  if (!Number.isFinite(ms)) return 'never';
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}
