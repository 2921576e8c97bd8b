import { mkdir } from 'node:fs/promises';
import type { DriverKind } from '../drivers/driver.js';
import { DRIVER_KINDS } from '../drivers/index.js';
import { LoginGuard } from './auth/bans.js';
import { readHttpSettings } from './auth/http-section.js';
import { AuthStore } from './auth/store.js';
import { AutomationExtension } from './automation/index.js';
import { TimeZone } from './automation/local-time.js';
import { loadConfig } from './config/load.js';
import type { HubConfig } from './config/types.js';
import type { Clock } from './core/clock.js';
import type { Component } from './core/component.js';
import { Core } from './core/core.js';
import { Lifecycle } from './core/lifecycle.js';
import type { Logger } from './core/log.js';
import { DOMAINS } from './domains/index.js';
import { Helpers } from './helpers/index.js';
import type { HttpServer } from './http/server.js';
import { Drivers } from './hub/drivers.js';
import { exposedGc, HeapTrim } from './hub/heap-trim.js';
import { HttpComponent } from './hub/http.js';
import { mqttComponent } from './hub/mqtt.js';
import type { MqttComponent } from './mqtt/component.js';
import { readRecorderConfig } from './recorder/config.js';
import { Recorder } from './recorder/recorder.js';
import { Statistics } from './recorder/statistics.js';
import { Registries } from './registry/index.js';
import { SECTION_VALIDATORS } from './sections.js';
import { templateEngineFor } from './template/index.js';
import { TemplateEntities } from './template-entities/index.js';
import { Thermostats } from './thermostat/index.js';

/** Re-exported for tests and benches; check-config imports ./sections.js so it never loads uWS. */
export { SECTION_VALIDATORS };

import { RestoreState } from './restore/restore-state.js';
import { ErrorLog } from './util/error-log.js';
import type { Scheduler } from './util/scheduler.js';

export interface HubOptions {
  readonly config: HubConfig;
  readonly dataDir: string;
  readonly log: Logger;
  readonly errorLog?: ErrorLog;
  /** Overrides hub.host / hub.port from the config (the CLI flags). */
  readonly host?: string;
  readonly port?: number;
  readonly clock?: Clock;
  /** Timers that run on the clock (helpers' timers); real timers by default, a manual one in tests. */
  readonly scheduler?: Scheduler;
  /** Random source for the virtual devices (tests seed it). */
  readonly random?: () => number;
  /** The driver kinds to load (tests add failing or slow ones); DRIVER_KINDS by default. */
  readonly driverKinds?: readonly DriverKind[];
  /** How long start() waits for a driver before carrying on without it. */
  readonly driverStartTimeoutMs?: number;
  /** The MQTT client's first reconnect delay (tests shorten it). */
  readonly mqttMinReconnectMs?: number;
}

/** A driver failing to start is contained: logged once, the hub carries on. */
const DRIVER_START_TIMEOUT_MS = 10_000;

/**
 * The composition root. One ordered list of components, started forward and stopped backward
 * (src/core/lifecycle.ts): storage first and last, so every change made while the hub runs reaches the disk;
 * the API listens before the drivers start, so a slow device never delays it. Adding a component is one line
 * in the list below.
 */
export class Hub {
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly core: Core,
    readonly config: HubConfig,
    private readonly lifecycle: Lifecycle,
    private readonly parts: {
      readonly restore: RestoreState;
      readonly registries: Registries;
      readonly auth: AuthStore;
      readonly http: HttpComponent;
      readonly recorder: Recorder | undefined;
      readonly statistics: Statistics | undefined;
      readonly mqtt: MqttComponent | undefined;
    },
  ) {}

  get port(): number {
    return this.server.port;
  }

  get server(): HttpServer {
    return this.parts.http.listening;
  }

  get auth(): AuthStore {
    return this.parts.auth;
  }

  get registries(): Registries {
    return this.parts.registries;
  }

  /** The recorder and the statistics, when the recorder is on. */
  get recorder(): Recorder | undefined {
    return this.parts.recorder;
  }

  get statistics(): Statistics | undefined {
    return this.parts.statistics;
  }

  /** The MQTT component, when an `mqtt:` section is configured. */
  get mqtt(): MqttComponent | undefined {
    return this.parts.mqtt;
  }

  get restoreState(): RestoreState {
    return this.parts.restore;
  }

  static async start(options: HubOptions): Promise<Hub> {
    const { config, log, dataDir } = options;
    const core = new Core({ maxEntities: config.hub.max_entities, clock: options.clock, log });
    core.runState = 'STARTING';
    for (const domain of DOMAINS) domain.registerServices(core);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });

    const driverStartTimeoutMs = options.driverStartTimeoutMs ?? DRIVER_START_TIMEOUT_MS;
    const httpSettings = readHttpSettings(config);
    const httpLog = log.child({ module: 'http' });
    const restore = new RestoreState({
      core,
      dataDir,
      log: log.child({ module: 'restore_state' }),
      flushWindowS: config.hub.restore_flush_s,
      reportWindowS: config.hub.restore_report_flush_s,
      reportDeadlineMs: driverStartTimeoutMs,
    });
    const recorderConfig = readRecorderConfig(config.sections);
    const recorder = recorderConfig.enabled
      ? new Recorder({ core, dataDir, log: log.child({ module: 'recorder' }), config: recorderConfig })
      : undefined;
    const zone = TimeZone.of(config.hub.time_zone);
    const statistics = recorderConfig.enabled
      ? new Statistics({
          core,
          dataDir,
          log: log.child({ module: 'statistics' }),
          keepDays: recorderConfig.purgeKeepDays,
          offsetSeconds: (s) => (zone?.offsetMs(s * 1000) ?? 0) / 1000,
        })
      : undefined;
    // Before drivers: entities and devices they register get their stored registry settings.
    const registries = new Registries({ core, dataDir, sections: config.sections, log: log.child({ module: 'registry' }) });
    // After the registries (their entities get registry settings), before drivers and automations that use them.
    const helpers = new Helpers({
      core,
      config,
      dataDir,
      log: log.child({ module: 'helpers' }),
      scheduler: options.scheduler,
      forget: (entityId) => {
        if (registries.entities.entry(entityId) !== undefined) registries.entities.remove(entityId);
      },
      reloadConfig: config.path === null ? undefined : () => loadConfig(config.path, SECTION_VALIDATORS),
      offsetMs: (utcMs) => zone?.offsetMs(utcMs) ?? 0,
    });
    const auth = AuthStore.unopened(dataDir, log.child({ module: 'auth' }), { watch: true });
    const guard = LoginGuard.unopened(dataDir, httpSettings, httpLog);
    const mqtt = mqttComponent({ core, config, registries, log, dataDir, minReconnectMs: options.mqttMinReconnectMs });
    const mqttSubscriber = mqtt && {
      subscribe: (filter: string, fn: (m: { topic: string; payload: string; retain: boolean }) => void) =>
        mqtt.subscribe(filter, (m) => fn({ topic: m.topic, payload: m.payload.toString(), retain: m.retain })),
    };
    let hub: Hub | undefined;
    const http = new HttpComponent({
      log: httpLog,
      webLog: log.child({ module: 'web' }),
      settings: httpSettings,
      host: options.host ?? config.hub.host,
      port: options.port ?? config.hub.port,
      api: () => ({
        core,
        auth,
        registries,
        config,
        log: log.child({ module: 'api' }),
        errorLog: options.errorLog ?? new ErrorLog(),
        components: () => hub?.components() ?? [],
        guard,
        history: recorder,
        mqtt: mqttSubscriber,
        statistics,
        helpers: (domain) => helpers.collection(domain),
        traces: automations.traces,
        automation: automations.client,
      }),
    });
    const drivers = new Drivers({
      core,
      config,
      log,
      kinds: options.driverKinds ?? DRIVER_KINDS,
      startTimeoutMs: driverStartTimeoutMs,
      context: { dataDir, random: options.random, lastState: (entityId) => restore.get(entityId) },
    });
    const automations = new AutomationExtension(core, config, log.child({ module: 'automation' }), {
      // The reload services re-read the file; the bundled demo has none to re-read.
      reloadConfig: config.path === null ? undefined : () => loadConfig(config.path, SECTION_VALIDATORS),
      mqtt: mqtt && mqttSubscriber && { subscribe: mqttSubscriber.subscribe, render: mqtt.render },
      templates: templateEngineFor(core, registries, config.hub.time_zone),
      scheduler: options.scheduler,
    });
    const templateEntities = new TemplateEntities({
      core,
      config,
      log: log.child({ module: 'template' }),
      templates: templateEngineFor(core, registries, config.hub.time_zone),
    });

    const thermostats = new Thermostats({
      core,
      config,
      log: log.child({ module: 'generic_thermostat' }),
      scheduler: options.scheduler,
      lastState: (entityId) => restore.get(entityId),
    });

    const components: readonly Component[] = [
      restore,
      ...(recorder ? [recorder] : []),
      ...(statistics ? [statistics] : []),
      registries,
      helpers,
      auth,
      guard,
      http,
      drivers,
      ...(mqtt ? [mqtt] : []),
      // Before automations, so their triggers see the template entities from the start.
      templateEntities,
      // After the switches and sensors they read (drivers, helpers, MQTT, template entities), before automations.
      thermostats,
      automations,
      // Last: it only watches the heap, and stops first.
      new HeapTrim({ log: log.child({ module: 'heap_trim' }), gc: exposedGc(), scheduler: options.scheduler }),
    ];
    const lifecycle = new Lifecycle(components, { log, core });
    hub = new Hub(core, config, lifecycle, { restore, registries, auth, http, recorder, statistics, mqtt });
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
    core.bus.fire('homeassistant_stop', {}, core.newContext());
    await this.lifecycle.stop();
    core.runState = 'STOPPED';
  }
}
