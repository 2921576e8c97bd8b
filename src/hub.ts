import { mkdir } from 'node:fs/promises';
import type { Driver, DriverKind } from '../drivers/driver.js';
import { DRIVER_KINDS } from '../drivers/index.js';
import { registerRestApi } from './api/rest.js';
import { registerWebSocketApi, type WebSocketApi } from './api/websocket.js';
import { LoginGuard } from './auth/bans.js';
import { readHttpSettings } from './auth/http-section.js';
import { AuthStore } from './auth/store.js';
import { AutomationExtension } from './automation/index.js';
import { loadConfig } from './config/load.js';
import type { HubConfig } from './config/types.js';
import type { Clock } from './core/clock.js';
import { Core } from './core/core.js';
import type { JsonValue } from './core/json.js';
import type { Logger } from './core/log.js';
import { DOMAINS } from './domains/index.js';
import { forwardedFor } from './http/client-address.js';
import type { ApiContext } from './http/context.js';
import { HttpServer } from './http/server.js';
import { Registries } from './registry/index.js';
import { SECTION_VALIDATORS } from './sections.js';

/** Re-exported for tests and benches; check-config imports ./sections.js so it never loads uWS. */
export { SECTION_VALIDATORS };

import { RestoreState } from './restore/restore-state.js';
import { ErrorLog } from './util/error-log.js';
import { registerWebUi, type WebUi } from './web/index.js';

export interface HubOptions {
  readonly config: HubConfig;
  readonly dataDir: string;
  readonly log: Logger;
  readonly errorLog?: ErrorLog;
  /** Overrides hub.host / hub.port from the config (the CLI flags). */
  readonly host?: string;
  readonly port?: number;
  readonly clock?: Clock;
  /** Random source for the virtual devices (tests seed it). */
  readonly random?: () => number;
  /** The driver kinds to load (tests add failing or slow ones); DRIVER_KINDS by default. */
  readonly driverKinds?: readonly DriverKind[];
  /** How long start() waits for a driver before carrying on without it. */
  readonly driverStartTimeoutMs?: number;
}

/** A driver failing to start is contained: logged once, the hub carries on. */
const DRIVER_START_TIMEOUT_MS = 10_000;

/**
 * The composition root: config -> core -> domains -> auth -> API (listening) -> drivers -> automations.
 * The API answers before drivers finish starting, so a slow device never delays the hub. Stop runs in
 * reverse order.
 */
export class Hub {
  private drivers: { owner: string; driver: Driver }[] = [];
  private automations: AutomationExtension | undefined;
  private ws: WebSocketApi | undefined;
  private web: WebUi | undefined;
  private guard: LoginGuard | undefined;
  private stopping: Promise<void> | undefined;
  /** i12-restore: the restore-state store (lead: becomes the first entry of the component list). */
  restoreState: RestoreState | undefined;

  private constructor(
    readonly core: Core,
    readonly auth: AuthStore,
    readonly server: HttpServer,
    readonly config: HubConfig,
    private readonly log: Logger,
    readonly registries: Registries,
  ) {}

  get port(): number {
    return this.server.port;
  }

  static async start(options: HubOptions): Promise<Hub> {
    const { config, log } = options;
    const core = new Core({ maxEntities: config.hub.max_entities, clock: options.clock, log });
    core.runState = 'STARTING';
    for (const domain of DOMAINS) domain.registerServices(core);

    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    // Before drivers: entities and devices they register get their stored registry settings.
    const registries = await Registries.start({
      core,
      dataDir: options.dataDir,
      sections: config.sections,
      log: log.child({ module: 'registry' }),
    });
    const auth = await AuthStore.open(options.dataDir, log.child({ module: 'auth' }), { watch: true });
    const http = readHttpSettings(config);
    const guard = await LoginGuard.open(options.dataDir, http, log.child({ module: 'http' }));
    let server: HttpServer;
    try {
      const httpLog = log.child({ module: 'http' });
      server = new HttpServer(httpLog, { gate: guard, tls: http.tls, forwarded: forwardedFor(http.trustedProxies, httpLog) });
    } catch (err) {
      // Unusable TLS files: nothing else is started yet; close what is open (watchers, timers) and say why.
      await Promise.allSettled([guard.close(), auth.close(), registries.stop()]);
      throw err;
    }
    const hub = new Hub(core, auth, server, config, log, registries);
    hub.guard = guard;
    // i12-restore (lead: move into the component list; storage starts first and stops last).
    hub.restoreState = await RestoreState.open({
      core,
      dataDir: options.dataDir,
      log: log.child({ module: 'restore_state' }),
      flushWindowS: config.hub.restore_flush_s,
      reportDeadlineMs: options.driverStartTimeoutMs ?? DRIVER_START_TIMEOUT_MS,
    });

    const api: ApiContext = {
      core,
      auth,
      registries,
      config,
      log: log.child({ module: 'api' }),
      errorLog: options.errorLog ?? new ErrorLog(),
      components: () => hub.components(),
      guard,
    };
    registerRestApi(server, api);
    hub.ws = registerWebSocketApi(server, api);
    hub.web = registerWebUi(server, api, { secureCookies: http.tls !== undefined });
    server.finish();
    const host = options.host ?? config.hub.host;
    let port: number;
    try {
      port = await server.listen(host, options.port ?? config.hub.port);
    } catch (err) {
      await hub.stop();
      throw err;
    }
    log.info({ host, port, scheme: server.scheme }, 'API listening');

    await hub.startDrivers(options);
    hub.automations = new AutomationExtension(core, config, log.child({ module: 'automation' }), {
      // The reload services re-read the file; the bundled demo has none to re-read.
      reloadConfig: config.path === null ? undefined : () => loadConfig(config.path, SECTION_VALIDATORS),
    });
    await hub.automations.start();
    core.runState = 'RUNNING';
    core.bus.fire('homeassistant_started', {}, core.newContext());
    return hub;
  }

  /** Loaded components as Home Assistant lists them: each domain, and `<domain>.<platform>`. */
  components(): string[] {
    const out = new Set<string>(['api', 'websocket_api', 'homeassistant']);
    for (const domain of this.core.services.domains()) out.add(domain);
    for (const entity of this.core.entities.all()) out.add(`${entity.domain}.${entity.owner.split(':')[0]}`);
    return [...out].sort();
  }

  private async startDrivers(options: HubOptions): Promise<void> {
    const { config, log, core } = this;
    for (const kind of options.driverKinds ?? DRIVER_KINDS) {
      const value = config.sections[kind.section];
      if (value === undefined) continue;
      const owner = kind.section;
      const ctx = {
        core,
        log: log.child({ driver: owner }),
        owner,
        dataDir: options.dataDir,
        random: options.random,
        lastState: (entityId: string) => this.restoreState?.get(entityId),
      };
      try {
        const driver = kind.create(ctx, value as JsonValue);
        if (driver !== undefined) this.drivers.push({ owner, driver });
      } catch (err) {
        log.error({ err, driver: owner }, `driver ${owner} could not be created; the hub carries on without it`);
      }
    }
    // Drivers start concurrently: one slow device does not hold up the others.
    const timeoutMs = options.driverStartTimeoutMs ?? DRIVER_START_TIMEOUT_MS;
    await Promise.all(this.drivers.map(({ owner, driver }) => this.startDriver(owner, driver, timeoutMs)));
  }

  private async startDriver(owner: string, driver: Driver, timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const result = await Promise.race([driver.start().then(() => 'ok' as const), timeout]);
      if (result === 'timeout')
        this.log.warn(
          { driver: owner },
          `driver ${owner} is still starting after ${timeoutMs / 1000} s; the hub carries on without waiting`,
        );
    } catch (err) {
      this.log.error({ err, driver: owner }, `driver ${owner} failed to start; its entities stay unavailable`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops in reverse order of start; safe to call more than once. */
  stop(): Promise<void> {
    if (this.stopping === undefined) this.stopping = this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const { core } = this;
    core.runState = 'STOPPING';
    core.bus.fire('homeassistant_stop', {}, core.newContext());
    await this.automations?.stop().catch((err: unknown) => this.log.error({ err }, 'automations failed to stop'));
    for (const { owner, driver } of [...this.drivers].reverse()) {
      try {
        await driver.stop();
      } catch (err) {
        this.log.error({ err, driver: owner }, `driver ${owner} failed to stop cleanly`);
      }
      core.bus.removeOwner(owner);
      core.services.removeOwner(owner);
      core.entities.removeOwner(owner);
    }
    await this.registries.stop().catch((err: unknown) => this.log.error({ err }, 'registries failed to save'));
    this.ws?.close();
    this.server.close();
    await this.web?.close();
    await this.guard?.close();
    await this.auth.close();
    await this.restoreState?.stop().catch((err: unknown) => this.log.error({ err }, 'restore state failed to save')); // i12-restore
    core.runState = 'STOPPED';
  }
}
