/**
 * Everything long-lived in the hub: storage, registries, auth, the HTTP server, and the parts integrations make
 * (drivers, MQTT, the recorder, automations). The composition root (src/hub.ts) keeps one ordered list of them,
 * starts it forward and stops it backward (src/core/lifecycle.ts).
 */
export interface Component {
  /** For logs: "registries", "http", "drivers". */
  readonly name: string;
  /**
   * An optional component (drivers, automations) that fails or overruns its start deadline is logged once and
   * the hub carries on without waiting for it; a required one (storage, auth, HTTP) that fails stops the start.
   */
  readonly optional?: boolean;
  /**
   * The owner key its listeners, services, entities and devices are registered under: removed in bulk when the
   * part is taken down at run time (a failed start); at shutdown entities stay, as Home Assistant keeps them.
   */
  readonly owner?: string;
  start(): Promise<void>;
  /** Ends all I/O and timers; must not throw for a component that never started. */
  stop(): Promise<void>;
}
