import type { RefreshTokenInfo } from '../../auth/refresh-tokens.js';
import type { TokenSummary, User } from '../../auth/types.js';
import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { csrfField, notice, page, problems } from './layout.js';

export interface ProfilePage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly user: User;
  readonly username: string | undefined;
  readonly tokens: readonly TokenSummary[];
  /** Apps signed in with this user's password (the Companion apps, other Home Assistant clients). */
  readonly apps?: readonly RefreshTokenInfo[];
  /** A token just created: shown this once. */
  readonly created?: { readonly name: string; readonly token: string };
  readonly problems?: readonly string[];
  readonly notice?: string;
  /** What was typed into the create form, kept after a problem. */
  readonly tokenName?: string;
  /** Link the Zigbee page (the hub runs a Zigbee network). */
  readonly zigbee: boolean;
}

export function profilePage(o: ProfilePage): Html {
  const role = o.user.isOwner ? 'Owner' : o.user.isAdmin ? 'Administrator' : 'User';
  return page({
    title: 'Profile',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: '/profile', userName: o.user.name, zigbee: o.zigbee },
    scripts: ['profile.js'],
    body: html`<main class="page">
<h1>${o.user.name}</h1>
<dl class="facts">
<dt>Username</dt><dd>${o.username ?? 'none (no password set)'}</dd>
<dt>Role</dt><dd>${role}</dd>
</dl>
${notice(o.notice)}
${appsSection(o.apps ?? [], o.csrf)}
<section aria-labelledby="tokens-title">
<h2 id="tokens-title">Long-lived access tokens</h2>
<p>Apps, scripts and other hubs use these to reach this hub's REST and WebSocket API
(<code>Authorization: Bearer TOKEN</code>). Each is valid until you revoke it.</p>
${o.created === undefined ? '' : createdToken(o.created)}
${problems(o.problems ?? [])}
${tokenTable(o.tokens, o.csrf)}
<form method="post" action="/profile/tokens" class="row-form">
${csrfField(o.csrf)}
<label>Name <input name="name" required maxlength="100" placeholder="e.g. Node-RED" value="${o.tokenName ?? ''}"></label>
<button type="submit">Create token</button>
</form>
</section>
</main>`,
  });
}

function createdToken(created: { readonly name: string; readonly token: string }): Html {
  return html`<div class="created" role="status">
<p><strong>Token \u201c${created.name}\u201d created.</strong> Copy it now: it is not shown again.</p>
<div class="copy-row">
<input id="new-token" class="token" readonly value="${created.token}" aria-label="The new token" spellcheck="false">
<button type="button" class="copy" data-copy="new-token" hidden>Copy</button>
</div>
</div>`;
}

function tokenTable(tokens: readonly TokenSummary[], csrf: string): Html {
  if (tokens.length === 0) return html`<p class="empty">No tokens yet.</p>`;
  const sorted = [...tokens].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return html`<table class="tokens">
<thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${sorted.map(
  (t) => html`<tr>
<td>${t.name}</td>
<td>${time(t.createdAt)}</td>
<td>${t.lastUsedAt === null ? 'never' : time(t.lastUsedAt)}</td>
<td><form method="post" action="/profile/tokens/revoke" class="inline">${csrfField(csrf)}<input type="hidden" name="token_id" value="${t.id}"><button type="submit" class="danger" aria-label="${`Revoke ${t.name}`}">Revoke</button></form></td>
</tr>`,
)}
</tbody>
</table>`;
}

function appsSection(apps: readonly RefreshTokenInfo[], csrf: string): Html {
  const rows = [...apps].sort((a, b) => (b.lastUsedAt ?? b.createdAt).localeCompare(a.lastUsedAt ?? a.createdAt));
  return html`<section aria-labelledby="apps-title">
<h2 id="apps-title">Signed-in apps</h2>
${
  rows.length === 0
    ? html`<p class="empty">No app is signed in with your password. The Home Assistant Companion apps sign in from their own login screen.</p>`
    : html`<table class="tokens">
<thead><tr><th scope="col">App</th><th scope="col">Signed in</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${rows.map(
  (a) => html`<tr>
<td>${a.clientName ?? a.clientId ?? 'unknown app'}</td>
<td>${time(a.createdAt)}</td>
<td>${a.lastUsedAt === null ? 'never' : html`${time(a.lastUsedAt)}${a.lastUsedIp === null ? '' : ` from ${a.lastUsedIp}`}`}</td>
<td><form method="post" action="/profile/apps/sign-out" class="inline">${csrfField(csrf)}<input type="hidden" name="app_id" value="${a.id}"><button type="submit" class="danger" aria-label="${`Sign out ${a.clientName ?? a.clientId ?? 'app'}`}">Sign out</button></form></td>
</tr>`,
)}
</tbody>
</table>`
}
</section>`;
}

/** UTC on the server; profile.js shows it in the browser's time zone. */
function time(iso: string): Html {
  const shown = iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  return html`<time datetime="${iso}">${shown}</time>`;
}
