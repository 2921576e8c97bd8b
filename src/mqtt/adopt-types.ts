import type { JsonObject, JsonValue } from '../core/json.js';
import type { Attributes } from '../core/state.js';
import type { TemplateRenderer } from './template.js';

/** What an adopted entity's component gives the adopter: its platform, fixed attributes and state topics. */
export interface AdoptedParts {
  readonly platform: object;
  readonly fixed: Attributes;
  /** The domain's per-entity data (a thermostat's or a fan's capabilities), which its services validate with. */
  readonly data?: unknown;
  /**
   * [topic, what a payload on it means]: the state (a string, null for unknown, undefined to keep it) and attributes
   * (merged into the ones before). One topic may appear more than once (a JSON state read by several templates).
   */
  readonly topics: readonly (readonly [string, TopicHandler])[];
  /** The state the entity's domain keeps rather than a topic (a button's last press), written until a topic gives one. */
  readonly ownState?: () => string | null;
  /** Whether restore state brings the entity back (a button's last press); others come back from the broker. */
  readonly restore?: boolean;
}

export type TopicHandler = (payload: string) => { state?: string | null; attributes?: JsonObject };

export interface AdoptContext {
  readonly config: Record<string, JsonValue>;
  readonly render: TemplateRenderer;
  /** Publishes a command (QoS and retain from the config). */
  publish(topic: string, payload: string): void;
  /** Writes what the entity now assumes, as a topic's message would (optimistic: a command without a state topic). */
  assume(result: ReturnType<TopicHandler>): void;
}
