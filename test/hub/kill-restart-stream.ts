import { setTimeout as delay } from 'node:timers/promises';
import { microsFromIso } from '../../src/core/clock.js';

/** Wall-clock ms between an entity's answer and its next call: the recorder keeps milliseconds. */
const MS_APART = 2;

/** A state as the REST API gives it. */
export interface ApiState {
  readonly entity_id: string;
  readonly state: string;
  readonly attributes: Record<string, unknown>;
  readonly last_changed: string;
  readonly last_updated: string;
}

/** One entity the stream drives: the k-th call to it, and the key that tells its values apart. */
export interface Target {
  readonly entityId: string;
  /** The key of the entity's state before anything was ever set. */
  readonly initialKey: string;
  call(k: number, n: number): { readonly service: string; readonly data: Record<string, unknown>; readonly key: string };
  keyOf(state: { readonly state: string; readonly attributes: Record<string, unknown> }): string;
}

const onOff = (entityId: string): Target => ({
  entityId,
  initialKey: 'off',
  call: (k) => (k % 2 === 0 ? { service: 'turn_on', data: {}, key: 'on' } : { service: 'turn_off', data: {}, key: 'off' }),
  keyOf: (s) => s.state,
});

/** One entity of each kind: two helpers (restored by themselves), a light and a switch (restored through their driver). */
export const TARGETS: readonly Target[] = [
  {
    entityId: 'input_number.level',
    initialKey: '0',
    // Every value once: `n` counts calls across the whole test.
    call: (_k, n) => ({ service: 'set_value', data: { value: n % 1_000_000 }, key: String(n % 1_000_000) }),
    keyOf: (s) => String(Number(s.state)),
  },
  onOff('input_boolean.flag'),
  {
    entityId: 'light.lamp',
    initialKey: 'off',
    // on, on at another brightness (an attribute change), off.
    call: (k) => {
      if (k % 3 === 2) return { service: 'turn_off', data: {}, key: 'off' };
      const brightness = 1 + ((k * 37) % 255);
      return { service: 'turn_on', data: { brightness }, key: `on:${brightness}` };
    },
    keyOf: (s) => (s.state === 'on' ? `on:${String(s.attributes.brightness)}` : s.state),
  },
  onOff('switch.relay'),
];

/** One service call of the stream. */
export interface Call {
  readonly target: number;
  /** Position in the target's calls, over the whole test. */
  readonly index: number;
  readonly key: string;
  readonly cycle: number;
  readonly sentAt: number;
  /** Real time (ms) the answer came, when it came. */
  ackAt?: number;
  /** The changed state's last_updated (µs), when the answer listed the entity (the call changed it). */
  luUs?: number;
  /** The answer was not a 200 with a list. */
  error?: string;
}

/**
 * A steady stream of service calls over REST, two in flight, never two to one entity at once (so each entity's
 * calls reach the hub in the order they were sent). A call goes to an entity at least 2 ms of wall time after its
 * previous answer: the hub's clock, read after the previous change and at most a millisecond behind the wall
 * clock, then stamps the next change a later millisecond, which the recorder keeps.
 */
export class CallStream {
  readonly calls: Call[][] = TARGETS.map(() => []);
  private n = 0;
  private stopped = true;
  private readonly busy: boolean[] = TARGETS.map(() => false);
  private readonly lastAck: number[] = TARGETS.map(() => 0);
  private next = 0;
  private workers: Promise<void>[] = [];

  start(baseUrl: string, token: string, cycle: number): void {
    this.stopped = false;
    this.workers = [0, 1].map(() => this.work(baseUrl, token, cycle));
  }

  /** Stops sending; resolves when the calls in flight are answered or failed. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  /** The next entity to call; else how many ms until the first free one may be called (its answer's ms has passed). */
  private pick(): { readonly target: number } | { readonly waitMs: number } {
    const now = Date.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < TARGETS.length; i++) {
      const t = (this.next + i) % TARGETS.length;
      if (this.busy[t]) continue;
      const from = (this.lastAck[t] as number) + MS_APART;
      if (now >= from) {
        this.next = t + 1;
        return { target: t };
      }
      soonest = Math.min(soonest, from);
    }
    // With two workers at most one entity is busy, so another is free and due within MS_APART.
    return { waitMs: soonest - now };
  }

  private async work(baseUrl: string, token: string, cycle: number): Promise<void> {
    while (!this.stopped) {
      const picked = this.pick();
      if ('waitMs' in picked) {
        // Not a wait for an outcome: the clock must pass the millisecond of an entity's last change first.
        await delay(picked.waitMs);
        continue;
      }
      const t = picked.target;
      const target = TARGETS[t] as Target;
      const list = this.calls[t] as Call[];
      const { service, data, key } = target.call(list.length, this.n++);
      const call: Call = { target: t, index: list.length, key, cycle, sentAt: Date.now() };
      list.push(call);
      this.busy[t] = true;
      const [domain] = target.entityId.split('.');
      try {
        const res = await fetch(`${baseUrl}/api/services/${domain}/${service}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ entity_id: target.entityId, ...data }),
        });
        const text = await res.text();
        call.ackAt = Date.now();
        if (res.status !== 200) call.error = `${res.status} ${text.slice(0, 200)}`;
        else {
          const changed = (JSON.parse(text) as ApiState[]).find((s) => s.entity_id === target.entityId);
          if (changed !== undefined) {
            call.luUs = microsFromIso(changed.last_updated);
            const got = target.keyOf(changed);
            if (got !== key) call.error = `answered ${got}, asked ${key}`;
          }
        }
        this.lastAck[t] = call.ackAt;
      } catch {
        // The hub was killed with the call in flight: sent, not acknowledged.
      }
      this.busy[t] = false;
    }
  }
}
