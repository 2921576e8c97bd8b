export interface OutgoingMessage {
  readonly topic: string;
  readonly payload: string | Buffer;
  readonly qos: 0 | 1 | 2;
  readonly retain: boolean;
}

/**
 * Messages waiting for the broker: one per topic (only an entity's latest state matters, and a state topic is one
 * entity's), at most `max`; past that the oldest goes, and `onFull` is called once per outage.
 */
export class Outbox {
  private readonly byTopic = new Map<string, OutgoingMessage>();
  private fullReported = false;

  constructor(
    private readonly max: number,
    private readonly onFull: () => void,
  ) {}

  get size(): number {
    return this.byTopic.size;
  }

  put(message: OutgoingMessage): void {
    // Delete first so the topic moves to the end: the map's order is the age of each topic's latest message.
    this.byTopic.delete(message.topic);
    this.byTopic.set(message.topic, message);
    while (this.byTopic.size > this.max) {
      const oldest = this.byTopic.keys().next().value;
      if (oldest === undefined) break;
      this.byTopic.delete(oldest);
      if (!this.fullReported) {
        this.fullReported = true;
        this.onFull();
      }
    }
  }

  /** Everything waiting, oldest first; the outbox is empty afterwards. */
  drain(): OutgoingMessage[] {
    const out = [...this.byTopic.values()];
    this.byTopic.clear();
    this.fullReported = false;
    return out;
  }
}
