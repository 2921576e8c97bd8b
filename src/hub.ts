import { mkdir } from 'node:fs/promises';
import { LoginGuard } from './auth/bans.js';
import { readHttpSettings } from './auth/http-section.js';
import { AuthStore } from './auth/store.js';
import { automationIntegration } from './automation/integration.js';
import { TimeZone } from './automation/local-time.js';
import { EditorFileStore, uiConfigDir, withUiItems } from './automation/ui-files.js';
import { customizer } from './config/core-section.js';
import { formatIssue, readConfigFile } from './config/load.js';
import type { HubConfig } from './config/types.js';
import type { Clock } from './core/clock.js';
import type { Component } from './core/component.js';
import { Core } from './core/core.js';
import { HubError } from './core/errors.js';
import { Lifecycle } from './core/lifecycle.js';
import type { Logger } from './core/log.js';
import { DOMAINS } from './domains/index.js';
import { helpersIntegration } from './helpers/index.js';
import { type HomekitBridge, homekitIntegration } from './homekit/index.js';
import type { HttpServer } from './http/server.js';
import { exposedGc, HeapTrim } from './hub/heap-trim.js';
import { HttpComponent } from './hub/http.js';
import type { AnyIntegration, MessageSource } from './integration/integration.js';
import { Parts } from './integration/parts.js';
import { type MatterBridge, matterIntegration } from './matter/index.js';
import { mobileAppIntegration } from './mobile-app/index.js';
import type { MqttComponent } from './mqtt/component.js';
import { mqttIntegration } from './mqtt/integration.js';
import { presenceIntegration } from './presence/index.js';
import { recorderIntegration } from './recorder/integration.js';
import type { Recorder } from './recorder/recorder.js';
import type { Statistics } from './recorder/statistics.js';
import { Registries } from './registry/index.js';
import { RestoreState } from './restore/restore-state.js';
import { INTEGRATIONS, REQUIRED_SECTIONS, SECTION_VALIDATORS } from './sections.js';
import { templateEngineFor, textRenderer } from './template/index.js';
import type { BackoffOptions } from './util/backoff.js';
import { ErrorLog } from './util/error-log.js';
import type { LogLevels } from './util/logger.js';
import { type Scheduler, scopedScheduler, timersScheduler } from './util/scheduler.js';

/** Re-exported for tests and benches; check-config imports ./sections.js so it never loads uWS. */
export { SECTION_VALIDATORS };

export interface HubOptions {
  readonly config: HubConfig;
  readonly dataDir: string;
  readonly log: Logger;
  readonly errorLog?: ErrorLog;
  /** Overrides hub.host / hub.port from the config (the CLI flags). */
  readonly host?: string;
  readonly port?: number;
  readonly clock?: Clock;
  /** The hub's timers, on its clock (every part gets a scope of it); real timers by default, a manual one in tests. */
  readonly scheduler?: Scheduler;
  /** Random source for the virtual devices (tests seed it). */
  readonly random?: () => number;
  /** The log's levels, for the `logger:` section (serve passes its logger's). */
  readonly logLevels?: LogLevels;
  /** The optional parts, in start order; INTEGRATIONS by default (tests swap one for a fake: withIntegrations). */
  readonly integrations?: readonly AnyIntegration[];
  /** How long start() waits for a part before carrying on without it (10 s). */
  readonly startTimeoutMs?: number;
  /** Retry delays of a part whose start failed with a cause that can pass (5 s doubling to 5 min). */
  readonly retry?: BackoffOptions;
}

/** A part slow to start is waited for this long, then the hub carries on (it may still come up). */
const START_TIMEOUT_MS = 10_000;

/**
 * The composition root. One ordered list of components, started forward and stopped backward
 * (src/core/lifecycle.ts): storage first and last, so every change made while the hub runs reaches the disk;
 * the API listens before the devices start, so a slow device never delays it. The optional parts come from one
 * list of integrations (src/sections.ts), each started in isolation at its stage (src/integration/).
 */
export class Hub {
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly core: Core,
    readonly config: HubConfig,
    private readonly lifecycle: Lifecycle,
    private readonly own: {
      readonly restore: RestoreState;
      readonly registries: Registries;
      readonly auth: AuthStore;
      readonly http: HttpComponent;
      readonly parts: Parts;
      readonly scheduler: Scheduler | undefined;
    },
  ) {}

  get port(): number {
    return this.server.port;
  }

  get server(): HttpServer {
    return this.own.http.listening;
  }

  get auth(): AuthStore {
    return this.own.auth;
  }

  get registries(): Registries {
    return this.own.registries;
  }

  /** The recorder, when it is on. */
  get recorder(): Recorder | undefined {
    return this.own.parts.get(recorderIntegration)?.recorder;
  }

  get statistics(): Statistics | undefined {
    return this.own.parts.get(recorderIntegration)?.statistics;
  }

  /** The MQTT component, when an `mqtt:` section is configured (and sound). */
  get mqtt(): MqttComponent | undefined {
    return this.own.parts.get(mqttIntegration);
  }

  /** The HomeKit bridge, when a `homekit:` section is configured (and it started). */
  get homekit(): HomekitBridge | undefined {
    return this.own.parts.get(homekitIntegration);
  }

  /** The Matter bridge, when a `matter:` section is configured (and it started). */
  get matter(): MatterBridge | undefined {
    return this.own.parts.get(matterIntegration);
  }

  get restoreState(): RestoreState {
    return this.own.restore;
  }

  static async start(options: HubOptions): Promise<Hub> {
    const { log, dataDir } = options;
    // Automations and scripts made in the browser (automations.yaml, scripts.yaml) join the configuration's.
    const uiDir = uiConfigDir(options.config, dataDir);
    const config = await withUiItems(options.config, uiDir);
    // What the configuration asks for and hearth ignores (a Home Assistant integration it does not have), once each.
    for (const w of config.warnings ?? []) log.warn({ file: w.file, line: w.line, section: w.path[0] }, '%s', formatIssue(w));
    const core = new Core({ maxEntities: config.hub.max_entities, clock: options.clock, log });
    core.runState = 'STARTING';
    for (const domain of DOMAINS) domain.registerServices(core);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });

    const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    const ownScheduler = options.scheduler === undefined ? timersScheduler((err) => log.error({ err }, 'timer failed')) : undefined;
    const scheduler = options.scheduler ?? (ownScheduler as Scheduler);
    const httpSettings = readHttpSettings(config);
    const httpLog = log.child({ module: 'http' });
    const restore = new RestoreState({
      core,
      dataDir,
      log: log.child({ module: 'restore_state' }),
      flushWindowS: config.hub.restore_flush_s,
      reportWindowS: config.hub.restore_report_flush_s,
      reportDeadlineMs: startTimeoutMs,
    });
    // Before the parts: entities and devices they register get their stored registry settings.
    const registries = new Registries({ core, dataDir, sections: config.sections, log: log.child({ module: 'registry' }) });
    // `homeassistant: customize`: attributes over every state an entity writes.
    if (config.core !== undefined) registries.entities.setStateCustomize(customizer(config.core.customize));
    const zone = TimeZone.of(config.hub.time_zone);
    const templates = templateEngineFor(core, registries, config.hub.time_zone);
    let parts: Parts | undefined;
    const running = (): Parts => parts as Parts;
    // The `mqtt` trigger's and the API's way to the broker, whichever MQTT part runs now.
    const mqtt: MessageSource | undefined =
      config.sections.mqtt === undefined
        ? undefined
        : {
            subscribe: (filter, fn) => {
              const client = running().get(mqttIntegration);
              if (client === undefined) throw new HubError('not_found', 'MQTT is not running');
              return client.subscribe(filter, (m) => fn({ topic: m.topic, payload: m.payload.toString(), retain: m.retain }));
            },
            render: textRenderer(templates, 'mqtt'),
          };
    parts = new Parts({
      integrations: options.integrations ?? INTEGRATIONS,
      config,
      shared: {
        core,
        dataDir,
        hub: config.hub,
        timeZone: { name: config.hub.time_zone, offsetMs: (utcMs) => zone?.offsetMs(utcMs) ?? 0 },
        templates,
        lastState: (entityId) => restore.get(entityId),
        registries,
        // The bundled demo has no file to re-read: a reload gives what it started with.
        reloadConfig: async () =>
          withUiItems(
            config.path === null ? options.config : await readConfigFile(config.path, SECTION_VALIDATORS, REQUIRED_SECTIONS),
            uiDir,
          ),
        mqtt,
        random: options.random,
        httpPort: () => http.listening.port,
        logLevels: options.logLevels,
      },
      log,
      scheduler,
      startTimeoutMs,
      retry: options.retry,
    });
    const auth = AuthStore.unopened(dataDir, log.child({ module: 'auth' }), { watch: true });
    const guard = LoginGuard.unopened(dataDir, httpSettings, httpLog);
    let hub: Hub | undefined;
    const http = new HttpComponent({
      log: httpLog,
      webLog: log.child({ module: 'web' }),
      settings: httpSettings,
      host: options.host ?? config.hub.host,
      port: options.port ?? config.hub.port,
      // Built when the API starts: the storage parts (the recorder) run by then; the others are looked up per call.
      api: () => {
        const recording = running().get(recorderIntegration);
        return {
          core,
          auth,
          registries,
          config,
          log: log.child({ module: 'api' }),
          errorLog: options.errorLog ?? new ErrorLog(),
          components: () => hub?.components() ?? [],
          guard,
          history: recording?.recorder,
          statistics: recording?.statistics,
          mqtt,
          helpers: (domain: string) => running().get(helpersIntegration)?.collection(domain),
          presence: (domain: 'zone' | 'person') => running().get(presenceIntegration)?.collection(domain),
          get traces() {
            return running().get(automationIntegration)?.traces;
          },
          get automation() {
            return running().get(automationIntegration)?.client;
          },
          get mobileApp() {
            return running().get(mobileAppIntegration);
          },
          get homekit() {
            return running().get(homekitIntegration);
          },
          get matter() {
            return running().get(matterIntegration);
          },
          editorFiles: new EditorFileStore(uiDir),
        };
      },
    });

    const components: readonly Component[] = [
      restore,
      ...parts.stage('storage'),
      registries,
      ...parts.stage('core'),
      auth,
      guard,
      http,
      ...parts.stage('devices'),
      // Last: it only watches the heap, and stops first.
      new HeapTrim({ log: log.child({ module: 'heap_trim' }), gc: exposedGc(), scheduler: scopedScheduler(scheduler) }),
    ];
    // The parts bound their own starts; the hub's own components get at least the usual deadline.
    const lifecycle = new Lifecycle(components, { log, startDeadlineMs: Math.max(START_TIMEOUT_MS, startTimeoutMs + 1000) });
    hub = new Hub(core, config, lifecycle, { restore, registries, auth, http, parts, scheduler: ownScheduler });
    await lifecycle.start();
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

  /** Stops in reverse order of start; safe to call more than once. */
  stop(): Promise<void> {
    if (this.stopping === undefined) this.stopping = this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const { core } = this;
    core.runState = 'STOPPING';
    // Parts stop their I/O; what they made stays (Home Assistant keeps entities at shutdown): removed only when
    // the configuration removes it, on a reload or at the next start.
    core.entities.keepAll();
    core.devices.keepAll();
    core.bus.fire('homeassistant_stop', {}, core.newContext());
    await this.lifecycle.stop();
    this.own.scheduler?.stopAll();
    core.runState = 'STOPPED';
  }
}
