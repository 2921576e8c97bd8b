import { randomBytes } from 'node:crypto';
import { type Clock, isoFromMicros } from './clock.js';

/** One persistent notification, with Home Assistant's field names. */
export interface Notification {
  readonly notification_id: string;
  readonly title: string | null;
  readonly message: string;
  /** ISO time of its creation (or of its last replacement under the same id). */
  readonly created_at: string;
}

/** What a subscriber is told: everything at once (`current`), then each change, keyed by notification id. */
export type NotificationUpdate = 'current' | 'added' | 'removed' | 'updated';
export type NotificationListener = (type: NotificationUpdate, notifications: Readonly<Record<string, Notification>>) => void;

/** Bounds, so a loop calling `persistent_notification.create` cannot grow memory without end. */
export const MAX_NOTIFICATIONS = 500;
export const MAX_NOTIFICATION_MESSAGE = 65_536;
export const MAX_NOTIFICATION_TITLE = 1024;
export const MAX_NOTIFICATION_ID = 255;

/** The `invalid_config` notification's id: the parts that could not be set up (Home Assistant's). */
export const INVALID_CONFIG_NOTIFICATION = 'invalid_config';

function record(items: readonly Notification[]): Record<string, Notification> {
  const out: Record<string, Notification> = Object.create(null);
  for (const n of items) out[n.notification_id] = n;
  return out;
}

/**
 * Home Assistant's persistent notifications: messages for the user that stay until dismissed (the frontend's
 * bell), kept in memory as Home Assistant keeps them. A new notification under an existing id replaces it. At most
 * MAX_NOTIFICATIONS are kept; beyond that the oldest goes, announced as removed.
 */
export class PersistentNotifications {
  private readonly items = new Map<string, Notification>();
  private readonly listeners = new Set<NotificationListener>();

  constructor(
    private readonly clock: Clock,
    /** A listener that throws is reported here; the others are still told. */
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Creates or replaces a notification; a missing id gets a random one. Over-long text is cut to the bounds. */
  create(message: string, title: string | null = null, notificationId?: string): Notification {
    const id = notificationId ?? randomBytes(16).toString('hex');
    const notification: Notification = {
      notification_id: id.slice(0, MAX_NOTIFICATION_ID),
      title: title === null ? null : title.slice(0, MAX_NOTIFICATION_TITLE),
      message: message.slice(0, MAX_NOTIFICATION_MESSAGE),
      created_at: isoFromMicros(this.clock.now()),
    };
    // Re-inserted, so the map stays oldest first.
    this.items.delete(notification.notification_id);
    this.items.set(notification.notification_id, notification);
    this.emit('added', [notification]);
    if (this.items.size > MAX_NOTIFICATIONS) {
      const oldest = this.items.values().next().value as Notification;
      this.items.delete(oldest.notification_id);
      this.emit('removed', [oldest]);
    }
    return notification;
  }

  /** Removes one notification; false when there is none with that id. */
  dismiss(notificationId: string): boolean {
    const notification = this.items.get(notificationId);
    if (notification === undefined) return false;
    this.items.delete(notificationId);
    this.emit('removed', [notification]);
    return true;
  }

  dismissAll(): void {
    if (this.items.size === 0) return;
    const all = [...this.items.values()];
    this.items.clear();
    this.emit('removed', all);
  }

  get(notificationId: string): Notification | undefined {
    return this.items.get(notificationId);
  }

  /** Every notification, oldest first. */
  all(): Notification[] {
    return [...this.items.values()];
  }

  /** Tells `listener` every notification now (`current`), then each change; returns the unsubscribe. */
  subscribe(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    listener('current', record(this.all()));
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(type: NotificationUpdate, items: readonly Notification[]): void {
    if (this.listeners.size === 0) return;
    const changed = record(items);
    for (const listener of this.listeners) {
      try {
        listener(type, changed);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
