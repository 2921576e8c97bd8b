// Characteristic events sent at the end of the event-loop turn in which hearth changed them, not 250 ms later.
//
// hap-nodejs 1.2 queues each connection's event notifications and writes them on a 250 ms timer (HAPConnection
// .sendEvent, util/eventedhttp.js), except for ButtonEvent, ProgrammableSwitchEvent, MotionDetected and
// ContactSensorState, which it flushes at once ("immediate delivery"). The delay comes from the HAP specification's
// advice to coalesce notifications (HAP-python, under Home Assistant's bridge, waits 500 ms for the same reason); it
// guards against an accessory that changes a value many times a second. hearth's states change at most once per
// device report, so a light switched in the hub reached Apple Home a quarter of a second late for nothing (bench:
// 257 ms p50 and p99). hap-nodejs has no option for this, so after publish() the bridge wraps its server's
// broadcastEvent on that one instance: every event is still queued exactly as hap-nodejs queues it (one per change
// and connection, identical repeats dropped, never to the controller that wrote it), and at the end of the turn
// (setImmediate) each connection with queued events is flushed the way hap-nodejs flushes an immediate event. Changes
// made in one turn still go out together in one EVENT message per connection; a connection in the middle of a
// request gets them right after its response, as hap-nodejs does for immediate events. Written against hap-nodejs
// 1.2.0's internals (checked at install time below): if they are not there, events keep hap-nodejs's 250 ms.
import type * as HAP from 'hap-nodejs';

/** What this module touches of hap-nodejs's HAPConnection (private in its typings). */
interface ConnectionInternals {
  queuedEvents: unknown[];
  eventsTimer?: ReturnType<typeof setTimeout>;
  eventsQueuedForImmediateDelivery: boolean;
  handleEventsTimeout(): void;
}

interface ServerInternals {
  connections: Set<ConnectionInternals>;
  broadcastEvent(aid: number, iid: number, value: unknown, originator?: unknown, immediateDelivery?: boolean): void;
}

function internals(bridge: HAP.Bridge): ServerInternals | undefined {
  const server = (bridge._server as unknown as { httpServer?: Partial<ServerInternals> } | undefined)?.httpServer;
  if (server === undefined || !(server.connections instanceof Set) || typeof server.broadcastEvent !== 'function') return undefined;
  return server as ServerInternals;
}

function flushable(c: ConnectionInternals): boolean {
  return Array.isArray(c.queuedEvents) && typeof c.handleEventsTimeout === 'function' && 'eventsQueuedForImmediateDelivery' in c;
}

/**
 * Makes a published bridge send the events of one turn at the end of that turn. Returns false (and changes nothing)
 * when hap-nodejs's internals are not the ones this was written for.
 */
export function sendEventsEachTurn(bridge: HAP.Bridge): boolean {
  const server = internals(bridge);
  if (server === undefined) return false;
  const original = server.broadcastEvent.bind(server);
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    for (const connection of server.connections) {
      if (!flushable(connection) || connection.queuedEvents.length === 0) continue;
      // What HAPConnection.sendEvent does for an immediate event, without adding one: stop the 250 ms timer and
      // write the queue now (or, mid-request, right after the response).
      if (connection.eventsTimer !== undefined) clearTimeout(connection.eventsTimer);
      connection.eventsTimer = undefined;
      connection.eventsQueuedForImmediateDelivery = true;
      connection.handleEventsTimeout();
    }
  };
  const broadcastEvent: ServerInternals['broadcastEvent'] = (aid, iid, value, originator, immediateDelivery) => {
    original(aid, iid, value, originator, immediateDelivery);
    if (immediateDelivery === true || scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  server.broadcastEvent = broadcastEvent;
  return true;
}
