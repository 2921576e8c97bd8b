import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

export interface HomekitPage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly userName: string;
  readonly admin: boolean;
  readonly setup: { readonly pincode: string; readonly setupUri: string } | undefined;
  readonly accessories: number;
  readonly qrDataUrl: string | undefined;
}

export function homekitPage(o: HomekitPage): Html {
  const body = !o.admin
    ? html`<p>Only administrators can see the HomeKit pairing code.</p>`
    : o.setup === undefined
      ? html`<p>No HomeKit bridge runs. Add a <code>homekit:</code> section to the configuration (see docs/phones-and-voice-assistants.md) and restart.</p>`
      : html`<p>In Apple Home, choose <strong>Add Accessory</strong> and scan this code, or enter the setup code by hand.
The bridge shows ${String(o.accessories)} accessories.</p>
${o.qrDataUrl === undefined ? '' : html`<p><img class="qr" src="${o.qrDataUrl}" alt="HomeKit setup QR code" width="210" height="210"></p>`}
<p class="pincode" aria-label="Setup code">${o.setup.pincode}</p>
<p class="hint">Setup URI: <code>${o.setup.setupUri}</code></p>`;
  return page({
    title: 'HomeKit',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: 'profile', userName: o.userName },
    body: html`<main class="page"><h1>HomeKit</h1>
${body}
</main>`,
  });
}
