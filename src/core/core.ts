import { type Clock, systemClock } from './clock.js';
import { type Context, createContext } from './context.js';
import { DeviceRegistry } from './devices.js';
import { Entities } from './entities.js';
import { EventBus } from './event-bus.js';
import type { Logger } from './log.js';
import { PersistentNotifications } from './notifications.js';
import { ServiceRegistry } from './services.js';
import { DEFAULT_MAX_ENTITIES, StateTable } from './state-table.js';

export type RunState = 'NOT_RUNNING' | 'STARTING' | 'RUNNING' | 'STOPPING' | 'STOPPED';

export interface CoreOptions {
  readonly maxEntities?: number;
  readonly clock?: Clock;
  readonly log: Logger;
}

/** The hub's core: clock, event bus, state table, entities and services. Knows nothing of HTTP or hardware. */
export class Core {
  readonly clock: Clock;
  readonly log: Logger;
  readonly bus: EventBus;
  readonly states: StateTable;
  readonly entities: Entities;
  readonly services: ServiceRegistry;
  readonly devices: DeviceRegistry;
  /** Persistent notifications (the frontend's bell), among them `invalid_config`: the parts that could not be set up. */
  readonly notifications: PersistentNotifications;
  runState: RunState = 'NOT_RUNNING';

  constructor(options: CoreOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    const busLog = this.log.child({ module: 'event-bus' });
    this.bus = new EventBus(this.clock, (owner, type, err) => {
      busLog.error({ err, owner, event_type: type }, "EventBus error '%s/%s'", owner, type);
    });
    this.states = new StateTable(options.maxEntities ?? DEFAULT_MAX_ENTITIES, this.bus, this.clock);
    this.entities = new Entities(this.states, this.clock, this.log.child({ module: 'entities' }));
    this.devices = new DeviceRegistry(this.bus, this.clock);
    this.services = new ServiceRegistry(this.bus, this.entities, this.clock, this.log.child({ module: 'services' }));
    const notificationLog = this.log.child({ module: 'persistent_notification' });
    this.notifications = new PersistentNotifications(this.clock, (err) => notificationLog.error({ err }, 'notification listener failed'));
  }

  /** Removes everything registered under `owner`: bus listeners, services, entities and devices (a part taken down). */
  removeOwner(owner: string): void {
    this.bus.removeOwner(owner);
    this.services.removeOwner(owner);
    this.entities.removeOwner(owner);
    this.devices.removeOwner(owner);
  }

  newContext(userId: string | null = null, parentId: string | null = null): Context {
    return createContext(this.clock.now(), userId, parentId);
  }
}
