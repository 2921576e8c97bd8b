import type { Reply } from '../http/http.js';
import type { WebEnv } from './context.js';
import { sendPage } from './http-util.js';
import { messagePage } from './pages/auth-pages.js';

/** 503: too many password checks at once (each holds 32 MiB of scrypt memory). */
export async function busy(env: WebEnv, reply: Reply): Promise<void> {
  const assets = await env.assets.bundle();
  sendPage(
    reply,
    503,
    messagePage({
      hubName: env.ctx.config.hub.name,
      assets,
      title: 'Busy',
      message: 'The hub is checking many passwords at once. Try again in a moment.',
    }),
    [['Retry-After', '2']],
  );
}

/** A form the hub will not act on (cross-site, expired CSRF token): a page that says why, with a way back. */
export async function refuse(env: WebEnv, reply: Reply, why: string, status = 403, back = '/'): Promise<void> {
  const assets = await env.assets.bundle();
  sendPage(
    reply,
    status,
    messagePage({
      hubName: env.ctx.config.hub.name,
      assets,
      title: 'Form refused',
      message: `The hub refused this form: ${why}.`.replace(/\.\.$/, '.'),
      link: { href: back, label: 'Back' },
    }),
  );
}
