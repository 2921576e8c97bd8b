import type { JsonObject } from '../../src/core/json.js';
import type { State } from '../../src/core/state.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

/**
 * The template cover, light and fan tests' harness: a hub with a configuration, the events each action fires
 * (`template_action` with the action's name and variables), service calls over REST and states set as an
 * integration sets them. Ported from Home Assistant's tests/components/template/test_{cover,light,fan}.py.
 */

/** An action list that fires `template_action` with its name and the given variables rendered. */
export function recorded(name: string, variables: readonly string[] = []): string {
  const data = [`action: ${name}`, ...variables.map((v) => `${v}: "{{ ${v} }}"`), 'this_id: "{{ this.entity_id }}"'];
  return `\n          - event: template_action\n            event_data: {${data.join(', ')}}`;
}

export interface Harness {
  readonly hub: TestHub;
  /** The `template_action` events fired so far (cleared by take()). */
  take(): JsonObject[];
  set(entityId: string, state: string, attributes?: JsonObject): void;
  call(domain: string, service: string, body: JsonObject): Promise<Response>;
  state(entityId: string, pred?: (s: State) => boolean): Promise<State>;
  /** Waits until `count` actions have run. */
  actions(count: number): Promise<JsonObject[]>;
}

export async function startHarness(t: Teardown, yaml: string): Promise<Harness> {
  const hub = await startTestHub(t, { yaml: `${MINIMAL_CONFIG}\n${yaml}` });
  const { core } = hub.hub;
  let events: JsonObject[] = [];
  const waiters: (() => void)[] = [];
  core.bus.on('test-actions', 'template_action', (event) => {
    events.push(event.data as JsonObject);
    for (const w of waiters.splice(0)) w();
  });
  const harness: Harness = {
    hub,
    take() {
      const out = events;
      events = [];
      return out;
    },
    set(entityId, state, attributes = {}) {
      core.states.set(entityId, state, attributes);
    },
    call: (domain, service, body) => hub.api(`/api/services/${domain}/${service}`, { method: 'POST', body: JSON.stringify(body) }),
    state: (entityId, pred = () => true) => waitForState(core, entityId, pred),
    async actions(count) {
      const deadline = Date.now() + 3000;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} actions; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return harness.take();
    },
  };
  return harness;
}

/** The attributes of a state as a plain object (for t.match/t.same). */
export function attrs(s: State): JsonObject {
  return { ...s.attributes } as JsonObject;
}
