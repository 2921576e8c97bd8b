import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { csrfField, page, problems } from './layout.js';

export interface AuthorizeRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string;
}

export interface AuthorizePage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly request: AuthorizeRequest;
  /** Who is logged in in this browser: then one button signs the app in as them. */
  readonly signedInAs?: string;
  readonly username?: string;
  readonly problems?: readonly string[];
}

/** What the user sees of the client: the app's name for the Companion apps, else the client id's host. */
export function clientLabel(clientId: string): string {
  if (clientId.startsWith('https://home-assistant.io/iOS')) return 'the Home Assistant app for iOS';
  if (clientId.startsWith('https://home-assistant.io/android')) return 'the Home Assistant app for Android';
  try {
    return new URL(clientId).host;
  } catch {
    return clientId;
  }
}

/** /auth/authorize: an app asks to sign in (Home Assistant's OAuth authorize page, opened by the Companion apps). */
export function authorizePage(o: AuthorizePage): Html {
  const r = o.request;
  const hidden = html`${csrfField(o.csrf)}
<input type="hidden" name="client_id" value="${r.clientId}">
<input type="hidden" name="redirect_uri" value="${r.redirectUri}">
<input type="hidden" name="state" value="${r.state}">`;
  const form =
    o.signedInAs !== undefined
      ? html`<form method="post" action="/auth/authorize" class="stack">
${hidden}
<input type="hidden" name="use_session" value="1">
<button type="submit">Continue as ${o.signedInAs}</button>
</form>`
      : html`<form method="post" action="/auth/authorize" class="stack">
${hidden}
<label>Username <input name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" value="${o.username ?? ''}" autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
<button type="submit">Sign in</button>
</form>`;
  return page({
    title: 'Sign in',
    hubName: o.hubName,
    assets: o.assets,
    bodyClass: 'narrow',
    body: html`<main class="card-page">
<h1>Sign in</h1>
<p>Sign in to ${o.hubName} with ${clientLabel(r.clientId)}.</p>
${problems(o.problems ?? [])}
${form}
<p class="hint">The app gets its own sign-in, which you can end on your profile page.</p>
</main>`,
  });
}
