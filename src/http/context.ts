import type { LoginGuard } from '../auth/bans.js';
import type { AuthStore } from '../auth/store.js';
import type { HubConfig } from '../config/types.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { JsonObject, JsonValue } from '../core/json.js';
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

/**
 * The traces of automation and script runs as `trace/list`, `trace/get` and `trace/contexts` read them (src/trace
 * implements it). `domain` is `automation` or `script`, checked by the caller.
 */
export interface TraceReader {
  list(domain?: 'automation' | 'script', itemId?: string): JsonObject[];
  /** undefined when that run is not (or no longer) kept. */
  get(domain: 'automation' | 'script', itemId: string, runId: string): JsonObject | undefined;
  contexts(domain?: 'automation' | 'script', itemId?: string): JsonObject;
}

/** The parts of the automation language `validate_config` checks. */
export type AutomationPart = 'triggers' | 'conditions' | 'actions';

/**
 * Triggers, actions and the automation parsers as WebSocket `subscribe_trigger`, `execute_script` and
 * `validate_config` reach them (src/automation implements it). Invalid configuration throws a HubError
 * (`invalid_format`) whose message names the key under the message's own (`trigger`, `sequence`).
 */
export interface AutomationApi {
  /**
   * Attaches the triggers of `config` (one or a list); `fire` gets `{"trigger": {...}}` as JSON text and the
   * context of what caused it (null for time-based triggers). Bus listeners go under `owner`; the returned
   * function detaches everything.
   */
  subscribeTrigger(
    config: JsonValue,
    variables: JsonObject | undefined,
    owner: string,
    fire: (variablesJson: string, context: Context | null) => void,
  ): () => void;
  /** Runs a sequence of actions under `context`; resolves with the `stop` action's response, or null. Failures throw a HubError. */
  executeScript(sequence: JsonValue, variables: JsonObject | undefined, context: Context): Promise<JsonObject | null>;
  /** Checks one part with the parsers automations use: null when valid, else the problems, each named under `key`. */
  validate(part: AutomationPart, value: JsonValue, key: string): string | null;
}

/** A phone registered through mobile_app, as the API needs to know it. */
export interface PhoneRegistration {
  readonly webhook_id: string;
  readonly user_id: string;
  readonly device_name: string;
}

/** An answer to a webhook message: status, data, and whether it goes out in clear even to a phone that encrypts. */
export interface WebhookAnswer {
  readonly status: number;
  readonly data: JsonValue;
  readonly plain?: boolean;
}

/** A webhook call once read: answered already (unknown, deleted, unreadable), or a phone's message. */
export type OpenedWebhook =
  | { readonly kind: 'answer'; readonly status: number; readonly text: string }
  | { readonly kind: 'message'; readonly registration: PhoneRegistration; readonly type: string; readonly data: JsonValue };

/** The Companion apps' side of the hub (src/mobile-app implements it): registrations, the webhook, the push channel. */
export interface MobileAppApi {
  /** POST /api/mobile_app/registrations: Home Assistant's 201 answer, or 400 naming the field. */
  register(userId: string, body: JsonValue): { readonly status: number; readonly body: JsonObject };
  openWebhook(webhookId: string, body: JsonValue): OpenedWebhook;
  /** The answer to a message about the phone's own data, or undefined for a type the API answers. */
  phoneCommand(registration: PhoneRegistration, type: string, data: JsonValue): WebhookAnswer | undefined;
  /** The answer as the phone reads it: sealed with its key when it encrypts. */
  seal(registration: PhoneRegistration, answer: WebhookAnswer): { readonly status: number; readonly text: string };
  entitiesOf(registration: PhoneRegistration): JsonObject;
  deviceIdOf(registration: PhoneRegistration): string | undefined;
  registration(webhookId: string): PhoneRegistration | undefined;
  /** Opens the phone's local push channel; returns its close. */
  openPushChannel(registration: PhoneRegistration, send: (notification: JsonObject) => void, confirms: boolean): () => void;
  confirmPush(webhookId: string, confirmId: string): boolean;
}

/** The HomeKit bridge as its page shows it (src/homekit implements it). */
export interface HomekitView {
  /** The pairing code and setup URI, once the bridge runs. */
  readonly setup: { readonly pincode: string; readonly setupUri: string } | undefined;
  readonly accessoryCount: number;
  /** The setup QR code as SVG. */
  qrSvg(): Promise<string | undefined>;
}

/** The Matter bridge as its page shows it (src/matter implements it). */
export interface MatterView {
  /** The manual pairing code and the QR code's payload, once the bridge runs. */
  readonly pairing: { readonly manualCode: string; readonly qrCode: string } | undefined;
  /** Whether a controller has commissioned the bridge. */
  readonly commissioned: boolean;
  readonly endpointCount: number;
  /** The commissioning QR code as SVG. */
  qrSvg(): Promise<string | undefined>;
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
  /** The zones and persons made in the app (`zone/create` ...); undefined when the hub has no presence part. */
  readonly presence?: (domain: 'zone' | 'person') => HelperItems | undefined;
  /** Automation and script traces; undefined in hubs made without automations (the commands then find nothing). */
  readonly traces?: TraceReader;
  /** subscribe_trigger, execute_script and validate_config; undefined in hubs made without automations. */
  readonly automation?: AutomationApi;
  /** The Companion apps' registrations, webhook and push channel; undefined in hubs made without it. */
  readonly mobileApp?: MobileAppApi;
  /** The HomeKit bridge, when a `homekit:` section runs one. */
  readonly homekit?: HomekitView;
  /** The Matter bridge, when a `matter:` section runs one. */
  readonly matter?: MatterView;
  /** automations.yaml and scripts.yaml for the editor's REST endpoints; undefined in hubs made without them. */
  readonly editorFiles?: EditorFiles;
}

/**
 * The items the automation and script editor stores (src/automation/ui-files.ts implements it): `automation`
 * items found by their `id` in a list, `script` items by their key in a mapping. File problems throw HubErrors.
 */
export interface EditorFiles {
  get(section: 'automation' | 'script', id: string): Promise<JsonObject | undefined>;
  /** The item's problems, each naming its key, or undefined when the hub would run it. */
  check(section: 'automation' | 'script', id: string, item: JsonObject): string | undefined;
  /** Stores the item (replacing one with this id); one write at a time per file. */
  save(section: 'automation' | 'script', id: string, item: JsonObject): Promise<void>;
  /** false when there was no item with this id. */
  remove(section: 'automation' | 'script', id: string): Promise<boolean>;
}
