import type { User } from '../../auth/types.js';
import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

export interface AppPage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly user: User;
  readonly zigbee: boolean;
  readonly title: string;
  /** The sidebar entry to mark (`/config/automation/dashboard` for an automation's editor too). */
  readonly current: string;
  /** The page's module (`config-entities.js`); the page renders into `#app` over the WebSocket API. */
  readonly script: string;
}

/** The shell of a settings, insight or developer-tools page: the sidebar, and the page's module. */
export function appPage(o: AppPage): Html {
  return page({
    title: o.title,
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: o.current, userName: o.user.name, zigbee: o.zigbee },
    scripts: [o.script],
    meta: { 'hearth-csrf': o.csrf, 'hearth-admin': o.user.isAdmin ? 'true' : 'false', 'hearth-user': o.user.id },
    bodyClass: 'app',
    body: html`<main id="app" class="page wide" aria-live="off">
<h1>${o.title}</h1>
<noscript><p class="notice">This page needs JavaScript.</p></noscript>
<p class="loading">Loading\u2026</p>
</main>`,
  });
}

/** An unknown path: the sidebar when logged in, a way to the login page otherwise. */
export function notFoundPage(
  o: Omit<AppPage, 'title' | 'script' | 'current' | 'user' | 'csrf'> & {
    readonly who?: { readonly user: User; readonly csrf: string };
    readonly path: string;
  },
): Html {
  return page({
    title: 'Not found',
    hubName: o.hubName,
    assets: o.assets,
    nav: o.who === undefined ? undefined : { csrf: o.who.csrf, current: '', userName: o.who.user.name, zigbee: o.zigbee },
    bodyClass: o.who === undefined ? 'narrow' : 'app',
    body: html`<main class="${o.who === undefined ? 'card-page' : 'page'}">
<h1>Page not found</h1>
<p class="not-found">There is no page at <code>${o.path}</code>.</p>
<p>${o.who === undefined ? html`<a href="/login">Log in</a>` : html`Go to the <a href="/">dashboard</a> or pick a page from the menu.`}</p>
</main>`,
  });
}
