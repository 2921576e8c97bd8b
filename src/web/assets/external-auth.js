// @ts-check
/**
 * The Companion apps' external-auth bridge (Home Assistant's frontend, src/external_app): inside the app's web view
 * the page asks the app for an access token (Android: window.externalApp.getExternalAuth; iOS:
 * webkit.messageHandlers.getExternalAuth), the app answers through window.externalAuthSetToken, and the hub turns
 * the token into this web view's session, so the app's user is not asked to sign in twice.
 */

const params = new URLSearchParams(location.search);
const next = params.get('next') ?? '/';
const status = document.getElementById('external-auth-status');

/** @param {string} text */
function show(text) {
  if (status !== null) status.textContent = text;
}

/**
 * @param {boolean} success
 * @param {{ access_token?: string }} [data]
 */
async function setToken(success, data) {
  if (!success || typeof data?.access_token !== 'string') {
    show('The app did not give a sign-in. Sign in with your username and password instead.');
    location.replace(`/login?next=${encodeURIComponent(next)}`);
    return;
  }
  const res = await fetch('/auth/external/session', {
    method: 'POST',
    headers: { Authorization: `Bearer ${data.access_token}`, 'X-Requested-With': 'external-auth' },
    credentials: 'same-origin',
  });
  if (res.ok) location.replace(next.startsWith('/') && !next.startsWith('//') ? next : '/');
  else location.replace(`/login?next=${encodeURIComponent(next)}`);
}

/** @type {any} */
const w = window;
w.externalAuthSetToken = setToken;
const message = { callback: 'externalAuthSetToken' };
if (w.externalApp?.getExternalAuth !== undefined) w.externalApp.getExternalAuth(JSON.stringify(message));
else if (w.webkit?.messageHandlers?.getExternalAuth !== undefined) w.webkit.messageHandlers.getExternalAuth.postMessage(message);
else location.replace(`/login?next=${encodeURIComponent(next)}`);
