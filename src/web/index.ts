import { onboardingOf } from '../auth/onboarding.js';
import { SessionStore } from '../auth/sessions.js';
import type { HttpServer } from '../http/server.js';
import { Assets } from './assets.js';
import type { WebContext, WebEnv } from './context.js';
import { registerAppRoutes, registerNotFoundPage } from './routes/app-routes.js';
import { registerAuthRoutes } from './routes/auth-routes.js';
import { registerAuthorizeRoutes } from './routes/authorize-routes.js';
import { registerDashboardRoutes } from './routes/dashboard-routes.js';
import { registerExternalAuthRoutes } from './routes/external-auth-routes.js';
import { registerHomekitRoutes } from './routes/homekit-routes.js';
import { registerMatterRoutes } from './routes/matter-routes.js';
import { registerProfileRoutes } from './routes/profile-routes.js';
import { registerStaticRoutes } from './routes/static-routes.js';
import { registerZigbeeRoutes } from './routes/zigbee-routes.js';

export type { WebContext } from './context.js';

export interface WebUiOptions {
  /** Mark the session cookie Secure: set when the hub is served over TLS. */
  readonly secureCookies?: boolean;
  /** Where the browser code lives (tests point elsewhere). */
  readonly assetsDir?: string;
}

/** Handle for stopping the web UI. */
export interface WebUi {
  /** Waits for session writes in progress. */
  close(): Promise<void>;
}

/**
 * The web pages on the hub's own uWS app: onboarding, login and logout, the profile page with long-lived
 * tokens, and the live dashboard with its assets. Call before `server.finish()`.
 *
 * Nothing slow happens here: sessions load in the background and assets on the first page view, so the
 * hub starts as fast with the web UI as without.
 */
export function registerWebUi(server: HttpServer, ctx: WebContext, options: WebUiOptions = {}): WebUi {
  // Already the pages' own logger (the hub gives it `module: web`).
  const log = ctx.log;
  let sessions: Promise<SessionStore> | undefined;
  const env: WebEnv = {
    ctx,
    sessions: () => {
      sessions ??= SessionStore.open(ctx.auth.dataDir, log).catch((err: unknown) => {
        // Try again on the next request (a full disk may have been cleared meanwhile).
        sessions = undefined;
        throw err;
      });
      return sessions;
    },
    assets: new Assets(log, options.assetsDir),
    onboarding: onboardingOf(ctx.auth, log),
    secure: options.secureCookies === true,
    log,
  };
  registerDashboardRoutes(server, env);
  registerAuthRoutes(server, env);
  registerAuthorizeRoutes(server, env);
  registerExternalAuthRoutes(server, env);
  registerProfileRoutes(server, env);
  registerZigbeeRoutes(server, env);
  registerHomekitRoutes(server, env);
  registerMatterRoutes(server, env);
  registerStaticRoutes(server, env);
  registerAppRoutes(server, env);
  registerNotFoundPage(server, env);
  env.sessions().catch((err: unknown) => log.error({ err }, 'could not load the web sessions'));
  // `serve` prints the one-time code at start when the owner has no password.
  env.onboarding.announce().catch((err: unknown) => log.error({ err }, 'could not check the onboarding state'));
  return {
    async close() {
      if (sessions !== undefined) await (await sessions).close();
    },
  };
}
