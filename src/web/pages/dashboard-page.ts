import type { User } from '../../auth/types.js';
import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

export interface DashboardPage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly user: User;
  /** Link the Zigbee page (the hub runs a Zigbee network). */
  readonly zigbee: boolean;
}

/** The shell: dashboard.js fetches an access token, opens the WebSocket and renders the cards. */
export function dashboardPage(o: DashboardPage): Html {
  return page({
    title: 'Dashboard',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: '/', userName: o.user.name, zigbee: o.zigbee },
    scripts: ['dashboard.js'],
    meta: { 'hearth-csrf': o.csrf },
    bodyClass: 'dashboard',
    body: html`<main id="app" class="page wide" aria-live="off">
<noscript><p class="notice">The dashboard needs JavaScript. The <a href="/profile">profile page</a> works without it.</p></noscript>
<p class="loading">Loading\u2026</p>
</main>`,
  });
}
