import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../drivers/virtual/index.js';
import { loadConfig, parseConfigText, readConfigText } from '../../src/config/load.js';
import type { Clock } from '../../src/core/clock.js';
import { type Logger, silentLogger } from '../../src/core/log.js';
import { Hub } from '../../src/hub.js';
import type { AnyIntegration } from '../../src/integration/integration.js';
import { createMqttIntegration } from '../../src/mqtt/integration.js';
import { INTEGRATIONS, REQUIRED_SECTIONS, SECTION_VALIDATORS, withIntegrations } from '../../src/sections.js';
import type { BackoffOptions } from '../../src/util/backoff.js';
import type { Scheduler } from '../../src/util/scheduler.js';
import { zeroconfIntegration } from '../../src/zeroconf/index.js';

/** The part of a tap Test this helper needs. */
export interface Teardown {
  teardown(fn: () => unknown): void;
}

export const MINIMAL_CONFIG = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  elevation: 3
  time_zone: Europe/Amsterdam
virtual:
  - platform: light
    id: kitchen
    name: Kitchen
    color_modes: [hs, color_temp]
  - platform: light
    id: hallway
    name: Hallway
    color_modes: [brightness]
  - platform: switch
    id: coffee_maker
    name: Coffee Maker
    device_class: outlet
`;

export interface TestHub {
  readonly hub: Hub;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly wsUrl: string;
  /** A long-lived token of the owner. */
  readonly token: string;
  readonly dataDir: string;
  /** fetch() against the hub with the owner's token. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

export interface TestHubOptions {
  readonly yaml?: string;
  /** A configuration file to load (with its includes and secrets) instead of `yaml`. */
  readonly configFile?: string;
  readonly log?: Logger;
  readonly clock?: Clock;
  /** Timers on the clock (helpers' timers): a ManualScheduler drives them without sleeping. */
  readonly scheduler?: Scheduler;
  readonly dataDir?: string;
  /** Integrations in the place of the hub's of the same name (a driver with a fake adapter or test timers). */
  readonly integrations?: readonly AnyIntegration[];
  /** The MQTT client's first reconnect delay (tests of a broker restart shorten it). */
  readonly mqttMinReconnectMs?: number;
  /** Read `yaml` as `serve` does: a part with problems is left off and named, the rest starts. */
  readonly lenient?: boolean;
  /** Integrations after the hub's own (a fake part). */
  readonly extraIntegrations?: readonly AnyIntegration[];
  /** How long a part may take to start before the hub carries on. */
  readonly startTimeoutMs?: number;
  /** Retry delays of a part whose start failed with a cause that can pass. */
  readonly retry?: BackoffOptions;
}

/** Starts a hub on 127.0.0.1 with a free port and an owner token; stopped (and its data removed) at teardown. */
export async function startTestHub(t: Teardown, options: TestHubOptions = {}): Promise<TestHub> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'hearth-test-')));
  const yaml = options.yaml ?? MINIMAL_CONFIG;
  const config =
    options.configFile !== undefined
      ? await loadConfig(options.configFile, SECTION_VALIDATORS)
      : options.lenient === true
        ? readConfigText(yaml, null, SECTION_VALIDATORS, { required: REQUIRED_SECTIONS })
        : parseConfigText(yaml, null, SECTION_VALIDATORS);
  const hub = await Hub.start({
    config,
    dataDir,
    log: options.log ?? silentLogger,
    host: '127.0.0.1',
    port: 0,
    clock: options.clock,
    scheduler: options.scheduler,
    random: seededRandom(42),
    integrations: [
      ...withIntegrations(
        INTEGRATIONS,
        ...(options.mqttMinReconnectMs === undefined ? [] : [createMqttIntegration({ minReconnectMs: options.mqttMinReconnectMs })]),
        ...(options.integrations ?? []),
        // Tests stay off the LAN: a configuration with default_config: would otherwise announce over mDNS
        // (test/zeroconf/ announces inside a network namespace of its own). A test's own replacement comes first.
        { ...zeroconfIntegration, create: () => undefined },
      ),
      ...(options.extraIntegrations ?? []),
    ],
    startTimeoutMs: options.startTimeoutMs,
    retry: options.retry,
  });
  t.teardown(async () => {
    await hub.stop();
    if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
  });
  const owner = await hub.auth.ensureOwner('Test Owner');
  const token = await hub.auth.createToken(owner.id, `test-${Math.random().toString(36).slice(2)}`);
  const url = `http://127.0.0.1:${hub.port}`;
  return {
    hub,
    url,
    wsUrl: `ws://127.0.0.1:${hub.port}/api/websocket`,
    token,
    dataDir,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(url + path, { ...init, headers });
    },
  };
}
