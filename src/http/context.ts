import type { LoginGuard } from '../auth/bans.js';
import type { AuthStore } from '../auth/store.js';
import type { HubConfig } from '../config/types.js';
import type { Core } from '../core/core.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { HistoryReader, StatisticsReader } from '../recorder/types.js';
import type { Registries } from '../registry/index.js';
import type { ErrorLog } from '../util/error-log.js';

/** The broker connection WebSocket `mqtt/subscribe` reads through (configured with an `mqtt:` section). */
export interface MqttSubscriber {
  /** Throws a HubError for an invalid topic filter; returns the unsubscribe. */
  subscribe(
    filter: string,
    fn: (message: { readonly topic: string; readonly payload: string; readonly retain: boolean }) => void,
  ): () => void;
}

/** One helper domain's stored items, as the WebSocket CRUD commands reach them (src/helpers implements it). */
export interface HelperItems {
  list(): JsonObject[];
  create(data: JsonObject): JsonObject;
  update(id: string, data: JsonObject): JsonObject;
  delete(id: string): void;
}

/** What the API modules (REST, WebSocket, web pages) share. */
export interface ApiContext {
  readonly core: Core;
  readonly auth: AuthStore;
  readonly registries: Registries;
  readonly config: HubConfig;
  readonly log: Logger;
  readonly errorLog: ErrorLog;
  /** Loaded components for `components` in the config object, e.g. `light`, `light.virtual`. */
  readonly components: () => string[];
  /** Failed-login counting and IP bans (http: ip_ban_enabled, login_attempts_threshold). */
  readonly guard: LoginGuard;
  /** Recorded history and logbook; undefined when the recorder is off (the endpoints then answer 404). */
  readonly history?: HistoryReader;
  /** Long-term statistics; undefined when the recorder is off. */
  readonly statistics?: StatisticsReader;
  /** MQTT; undefined without an `mqtt:` section (then `mqtt/subscribe` is an unknown command). */
  readonly mqtt?: MqttSubscriber;
  /** The helpers' stored items by domain (`input_boolean/create` ...); undefined in hubs made without them. */
  readonly helpers?: (domain: string) => HelperItems | undefined;
}
