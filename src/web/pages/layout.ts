import type { AssetBundle } from '../assets.js';
import { type Html, type HtmlValue, html } from '../html.js';

/** The navigation of a logged-in page. */
export interface NavOptions {
  readonly csrf: string;
  readonly current: 'dashboard' | 'zigbee' | 'profile';
  readonly userName: string;
  /** Show the Zigbee page's link (the hub runs a Zigbee network). */
  readonly zigbee?: boolean;
}

export interface PageOptions {
  readonly title: string;
  readonly hubName: string;
  readonly assets: AssetBundle;
  /** Set for a logged-in page: shows the navigation and the logout button. */
  readonly nav?: NavOptions;
  /** Module scripts of the bundle to load (`dashboard.js`), with their imports preloaded. */
  readonly scripts?: readonly string[];
  /** Extra `<meta>` for the scripts (the dashboard's CSRF token). */
  readonly meta?: Readonly<Record<string, string>>;
  readonly body: HtmlValue;
  readonly bodyClass?: string;
}

/** The frame of every page: one stylesheet, no inline script or style (the CSP forbids both). */
export function page(o: PageOptions): Html {
  const base = `/static/${o.assets.id}/`;
  const preload = o.scripts === undefined ? [] : modulesFor(o.scripts, o.assets);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${o.title} · ${o.hubName}</title>
<link rel="stylesheet" href="${base}hearth.css">
<link rel="icon" href="${base}icon.svg" type="image/svg+xml">
${Object.entries(o.meta ?? {}).map(([name, content]) => html`<meta name="${name}" content="${content}">\n`)}${preload.map((m) => html`<link rel="modulepreload" href="${base}${m}">\n`)}${(o.scripts ?? []).map((s) => html`<script type="module" src="${base}${s}"></script>\n`)}</head>
<body class="${o.bodyClass ?? ''}">
<header class="top">
<a class="brand" href="/"><img src="${base}icon.svg" alt="" width="24" height="24"><span>${o.hubName}</span></a>
${o.nav === undefined ? '' : navigation(o.nav)}
</header>
${o.body}
</body>
</html>
`;
}

function navigation(nav: NavOptions): Html {
  const link = (href: string, label: string, key: NavOptions['current']) =>
    html`<a href="${href}"${nav.current === key ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav>
${link('/', 'Dashboard', 'dashboard')}
${nav.zigbee === true ? link('/zigbee', 'Zigbee', 'zigbee') : ''}
${link('/profile', nav.userName, 'profile')}
<form method="post" action="/logout" class="inline">${csrfField(nav.csrf)}<button type="submit" class="link">Log out</button></form>
</nav>`;
}

/** The modules a page needs, its own first: vendor and shared modules are preloaded, other pages' entries are not. */
function modulesFor(scripts: readonly string[], assets: AssetBundle): string[] {
  const entries = new Set(['dashboard.js', 'profile.js', 'zigbee.js']);
  const out = new Set(scripts);
  if (scripts.includes('dashboard.js')) for (const m of assets.modules) if (!entries.has(m)) out.add(m);
  return [...out].filter((m) => !scripts.includes(m));
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** A list of problems above a form, announced to screen readers. */
export function problems(list: readonly string[]): Html {
  if (list.length === 0) return html``;
  return html`<div class="problems" role="alert"><ul>${list.map((p) => html`<li>${p}</li>`)}</ul></div>`;
}

export function notice(text: string | undefined): Html {
  return text === undefined ? html`` : html`<p class="notice" role="status">${text}</p>`;
}
