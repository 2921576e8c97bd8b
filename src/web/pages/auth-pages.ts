import type { AssetBundle } from '../assets.js';
import { type Html, html } from '../html.js';
import { csrfField, notice, page, problems } from './layout.js';

interface FormPage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly csrf: string;
  readonly problems?: readonly string[];
}

export interface LoginPage extends FormPage {
  readonly username?: string;
  readonly next: string;
  readonly notice?: string;
}

export function loginPage(o: LoginPage): Html {
  return page({
    title: 'Log in',
    hubName: o.hubName,
    assets: o.assets,
    bodyClass: 'narrow',
    body: html`<main class="card-page">
<h1>Log in</h1>
${notice(o.notice)}${problems(o.problems ?? [])}
<form method="post" action="/login" class="stack">
${csrfField(o.csrf)}
<input type="hidden" name="next" value="${o.next}">
<label>Username <input name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" value="${o.username ?? ''}" autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
<button type="submit">Log in</button>
</form>
<p class="hint">Forgot the password? On the hub's machine run <code>npx hearth user password USERNAME</code>.</p>
</main>`,
  });
}

export interface CreateOwnerPage extends FormPage {
  readonly name?: string;
  readonly username?: string;
}

/** The very first visit: no users yet. */
export function createOwnerPage(o: CreateOwnerPage): Html {
  return page({
    title: 'Welcome',
    hubName: o.hubName,
    assets: o.assets,
    bodyClass: 'narrow',
    body: html`<main class="card-page">
<h1>Welcome to hearth</h1>
<p>Create the owner account. The owner can do everything, including creating access tokens for other apps.</p>
${problems(o.problems ?? [])}
<form method="post" action="/onboarding" class="stack">
${csrfField(o.csrf)}
<label>Your name <input name="name" autocomplete="name" required maxlength="100" value="${o.name ?? ''}" autofocus></label>
${passwordFields(o.username)}
<button type="submit">Create account</button>
</form>
</main>`,
  });
}

export interface ClaimOwnerPage extends CreateOwnerPage {
  readonly ownerName: string;
}

/** The owner exists (created by the CLI) but has no password: proven by the code in the hub's log. */
export function claimOwnerPage(o: ClaimOwnerPage): Html {
  return page({
    title: 'Set the owner password',
    hubName: o.hubName,
    assets: o.assets,
    bodyClass: 'narrow',
    body: html`<main class="card-page">
<h1>Set the owner's password</h1>
<p>The owner account <strong>${o.ownerName}</strong> was created on the command line and has no password yet.
Enter the one-time code the hub printed to its log (look for <code>onboardingCode</code>, e.g. with <code>journalctl -u hearth</code>),
or run <code>npx hearth user password USERNAME</code> on the hub's machine instead.</p>
${problems(o.problems ?? [])}
<form method="post" action="/onboarding" class="stack">
${csrfField(o.csrf)}
<label>One-time code <input name="code" required maxlength="20" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" placeholder="ABCD-EFGH" autofocus></label>
<label>Your name <input name="name" autocomplete="name" required maxlength="100" value="${o.name ?? o.ownerName}"></label>
${passwordFields(o.username)}
<button type="submit">Set password</button>
</form>
</main>`,
  });
}

function passwordFields(username: string | undefined): Html {
  return html`<label>Username <input name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" pattern="[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}" value="${username ?? ''}"></label>
<label>Password <input name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="1024"></label>
<label>Password again <input name="password_confirm" type="password" autocomplete="new-password" required minlength="8" maxlength="1024"></label>`;
}

export interface MessagePage {
  readonly hubName: string;
  readonly assets: AssetBundle;
  readonly title: string;
  readonly message: string;
  readonly link?: { readonly href: string; readonly label: string };
}

/** A page that only says something (a refused form, a wait). */
export function messagePage(o: MessagePage): Html {
  return page({
    title: o.title,
    hubName: o.hubName,
    assets: o.assets,
    bodyClass: 'narrow',
    body: html`<main class="card-page">
<h1>${o.title}</h1>
<p>${o.message}</p>
${o.link === undefined ? '' : html`<p><a href="${o.link.href}">${o.link.label}</a></p>`}
</main>`,
  });
}
