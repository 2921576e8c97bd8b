import type { User } from '../../auth/types.js';
import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

export interface ZigbeePage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly user: User;
  /** Whether the hub runs a Zigbee network (a `zigbee:` section); without one the page says how to add it. */
  readonly configured: boolean;
}

/** The shell: zigbee.js opens the WebSocket and renders permit join, the live log and the device list. */
export function zigbeePage(o: ZigbeePage): Html {
  return page({
    title: 'Zigbee',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: '/zigbee', userName: o.user.name, zigbee: true },
    scripts: o.configured ? ['zigbee.js'] : [],
    meta: { 'hearth-csrf': o.csrf },
    bodyClass: 'zigbee',
    body: o.configured
      ? html`<main id="app" class="page wide" aria-live="off">
<noscript><p class="notice">The Zigbee page needs JavaScript.</p></noscript>
<p class="loading">Loading\u2026</p>
</main>`
      : html`<main class="page">
<h1>Zigbee</h1>
<p class="notice" role="status">This hub has no Zigbee network. Plug in a coordinator stick and add a <code>zigbee:</code>
section to the configuration, for example:</p>
<pre><code>zigbee:
  port: /dev/serial/by-id/usb-ITead_Sonoff_Zigbee_3.0_USB_Dongle_Plus-if00-port0
  adapter: zstack</code></pre>
<p>Then restart hearth; the network key and PAN id are generated on the first start.</p>
</main>`,
  });
}

/** One device's page: zigbee-device.js reads the device over the WebSocket API; `ieee` undefined: not an address. */
export function zigbeeDevicePage(o: ZigbeePage & { readonly ieee: string | undefined }): Html {
  const ok = o.configured && o.ieee !== undefined;
  return page({
    title: 'Zigbee device',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: '/zigbee', userName: o.user.name, zigbee: o.configured },
    scripts: ok ? ['zigbee-device.js'] : [],
    meta: ok ? { 'hearth-csrf': o.csrf, 'hearth-zigbee-ieee': o.ieee as string } : { 'hearth-csrf': o.csrf },
    bodyClass: 'zigbee',
    body: ok
      ? html`<main id="app" class="page wide" aria-live="off">
<noscript><p class="notice">The Zigbee device page needs JavaScript.</p></noscript>
<p class="loading">Loading\u2026</p>
</main>`
      : html`<main class="page">
<h1>Zigbee device</h1>
<p class="notice" role="status">${o.configured ? 'That is not a Zigbee IEEE address (0x and 16 hex digits).' : 'This hub has no Zigbee network.'}</p>
<p><a href="/zigbee">All Zigbee devices</a></p>
</main>`,
  });
}
