// @ts-check
/**
 * What every live page shares: the CSRF token the server put in the page, short-lived access tokens for the
 * WebSocket API fetched with the logged-in session (a lost session sends the browser to the login page), the
 * link status line and the error toasts.
 */

import { html } from './html.js';
import { useEffect, useState } from './vendor/hooks.js';
import { HubConnection } from './ws-client.js';

export const csrf = document.querySelector('meta[name="hearth-csrf"]')?.getAttribute('content') ?? '';

/** @type {Set<(state: string) => void>} */
const linkListeners = new Set();
/** @type {Set<(text: string) => void>} */
const toastListeners = new Set();

/** @param {string} next where the login page returns to (a path of this site) */
function tokenFetcher(next) {
  return async () => {
    const res = await fetch('/web/token', { method: 'POST', headers: { 'X-CSRF-Token': csrf }, credentials: 'same-origin' });
    if (res.status === 401 || res.status === 403) {
      location.assign(`/login?next=${next}`);
      throw Object.assign(new Error('session ended'), { authLost: true });
    }
    if (!res.ok) throw new Error(`token request failed: ${res.status}`);
    const body = await res.json();
    return String(body.access_token);
  };
}

/**
 * The page's connection to the hub's WebSocket API; its state shows in LinkStatus.
 * @param {string} next this page's path, for the login page to return to
 */
export function pageConnection(next) {
  return new HubConnection({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/websocket`,
    token: tokenFetcher(next),
    onState: (state) => {
      for (const fn of linkListeners) fn(state);
    },
  });
}

/** Shows an error for a few seconds (a refused service call). @param {string} text */
export function toast(text) {
  for (const fn of toastListeners) fn(text);
}

export function LinkStatus() {
  const [state, setState] = useState('connecting');
  useEffect(() => {
    linkListeners.add(setState);
    return () => linkListeners.delete(setState);
  }, []);
  /** @type {Record<string, string>} */
  const text = { connecting: 'Connecting…', live: 'Live', offline: 'Offline – reconnecting…', 'auth-failed': 'Not allowed – log in again' };
  return html`<p class=${`conn conn-${state}`} role="status" data-link=${state}>${text[state] ?? state}</p>`;
}

export function Toasts() {
  const [items, setItems] = useState(/** @type {{ id: number, text: string }[]} */ ([]));
  useEffect(() => {
    let next = 1;
    /** @param {string} text */
    const add = (text) => {
      const id = next++;
      setItems((list) => [...list.slice(-2), { id, text }]);
      setTimeout(() => setItems((list) => list.filter((t) => t.id !== id)), 6000);
    };
    toastListeners.add(add);
    return () => toastListeners.delete(add);
  }, []);
  return html`<div class="toasts" role="alert">${items.map((t) => html`<p key=${t.id} class="toast">${t.text}</p>`)}</div>`;
}
