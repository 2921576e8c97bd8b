import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from './layout.js';

export interface MatterPage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly userName: string;
  readonly admin: boolean;
  readonly running: boolean;
  readonly pairing: { readonly manualCode: string; readonly qrCode: string } | undefined;
  readonly commissioned: boolean;
  readonly endpoints: number;
  readonly qrDataUrl: string | undefined;
}

/** The manual code as the apps print it: 4-3-4 digits. */
function grouped(code: string): string {
  return code.length === 11 ? `${code.slice(0, 4)}-${code.slice(4, 7)}-${code.slice(7)}` : code;
}

export function matterPage(o: MatterPage): Html {
  const body = !o.admin
    ? html`<p>Only administrators can see the Matter pairing code.</p>`
    : !o.running || o.pairing === undefined
      ? html`<p>No Matter bridge runs. Add a <code>matter:</code> section to the configuration (see docs/phones-and-voice-assistants.md) and restart.</p>`
      : html`<p>In Apple Home, Google Home or Alexa, add a Matter device and scan this code, or enter the pairing code by hand.
The bridge shows ${String(o.endpoints)} devices.${o.commissioned ? ' It is already commissioned: to add it to another app too, share it from the first one (Matter multi-admin).' : ''}</p>
${o.qrDataUrl === undefined ? '' : html`<p><img class="qr" src="${o.qrDataUrl}" alt="Matter pairing QR code" width="210" height="210"></p>`}
<p class="pincode" aria-label="Pairing code">${grouped(o.pairing.manualCode)}</p>
<p class="hint">QR payload: <code>${o.pairing.qrCode}</code></p>`;
  return page({
    title: 'Matter',
    hubName: o.hubName,
    assets: o.assets,
    nav: { csrf: o.csrf, current: 'profile', userName: o.userName },
    body: html`<main class="page"><h1>Matter</h1>
${body}
</main>`,
  });
}
