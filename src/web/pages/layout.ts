import type { AssetBundle } from '../assets.js';
import { type Html, type HtmlValue, html } from '../html.js';
import { APP_SCRIPTS } from './app-paths.js';

/** The navigation of a logged-in page. */
export interface NavOptions {
  readonly csrf: string;
  /** The path of the page shown (`/`, `/config/entities`, `/profile`), marked in the sidebar. */
  readonly current: string;
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
<title>${o.title} &middot; ${o.hubName}</title>
<link rel="stylesheet" href="${base}hearth.css">
<link rel="icon" href="${base}icon.svg" type="image/svg+xml">
${Object.entries(o.meta ?? {}).map(([name, content]) => html`<meta name="${name}" content="${content}">\n`)}${preload.map((m) => html`<link rel="modulepreload" href="${base}${m}">\n`)}${(o.scripts ?? []).map((s) => html`<script type="module" src="${base}${s}"></script>\n`)}</head>
<body class="${o.bodyClass ?? ''}${o.nav === undefined ? '' : ' with-nav'}">
${
  o.nav === undefined
    ? ''
    : html`<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-label="Show the menu">
`
}<header class="top">
${
  o.nav === undefined
    ? ''
    : html`<label for="nav-toggle" class="menu-button" title="Menu"><span aria-hidden="true">\u2630</span><span class="sr-only">Menu</span></label>
`
}<a class="brand" href="/"><img src="${base}icon.svg" alt="" width="24" height="24"><span>${o.hubName}</span></a>
${o.nav === undefined ? '' : account(o.nav)}
</header>
${
  o.nav === undefined
    ? o.body
    : html`<div class="shell">
${navigation(o.nav)}
<div class="content">
${o.body}
</div>
</div>`
}
</body>
</html>
`;
}

/** The sidebar's sections: Home Assistant's paths, so links and bookmarks from there work here. */
const SECTIONS: readonly { readonly title: string | null; readonly links: readonly (readonly [string, string])[] }[] = [
  {
    title: null,
    links: [
      ['/', 'Dashboard'],
      ['/history', 'History'],
      ['/logbook', 'Logbook'],
    ],
  },
  {
    title: 'Settings',
    links: [
      ['/config/entities', 'Entities'],
      ['/config/devices', 'Devices'],
      ['/config/areas', 'Areas'],
      ['/config/labels', 'Labels'],
      ['/config/helpers', 'Helpers'],
      ['/config/automation/dashboard', 'Automations'],
      ['/config/script/dashboard', 'Scripts'],
      ['/config/scene/dashboard', 'Scenes'],
      ['/config/users', 'Users'],
    ],
  },
  {
    title: 'Developer tools',
    links: [
      ['/developer-tools/state', 'States'],
      ['/developer-tools/action', 'Actions'],
      ['/developer-tools/template', 'Template'],
      ['/developer-tools/event', 'Events'],
    ],
  },
];

function navigation(nav: NavOptions): Html {
  const link = (href: string, label: string) =>
    html`<a href="${href}"${nav.current === href ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="side" aria-label="Pages">
${SECTIONS.map(
  (section, i) => html`${section.title === null ? '' : html`<h2>${section.title}</h2>`}
${section.links.map(([href, label]) => link(href, label))}
${i === 0 && nav.zigbee === true ? link('/zigbee', 'Zigbee') : ''}`,
)}
</nav>`;
}

function account(nav: NavOptions): Html {
  return html`<div class="account">
<a href="/profile"${nav.current === '/profile' ? html` aria-current="page"` : ''}>${nav.userName}</a>
<form method="post" action="/logout" class="inline">${csrfField(nav.csrf)}<button type="submit" class="link">Log out</button></form>
</div>`;
}

/** The modules a page needs, its own first: vendor and shared modules are preloaded, other pages' entries are not. */
function modulesFor(scripts: readonly string[], assets: AssetBundle): string[] {
  const entries = new Set(['dashboard.js', 'profile.js', 'zigbee.js', 'zigbee-device.js', ...APP_SCRIPTS]);
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
