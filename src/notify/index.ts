import { appendFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isoFromMicros } from '../core/clock.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { HubError } from '../core/errors.js';
import type { ValidData } from '../core/fields.js';
import { isJsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { NOTIFY_FIELDS, PERSISTENT_NOTIFICATION_FIELDS, TITLE_DEFAULT } from '../domains/notify.js';
import { parseDefaultConfig } from '../integration/default-config.js';
import { type Integration, optionalSection, type SectionParser } from '../integration/integration.js';
import type { TemplateEngine } from '../template/index.js';
import { type NotifyPlatformConfig, type NotifySection, parseNotifySection } from './config.js';

export const NOTIFY_OWNER = 'notify';
/** A notify file stops taking messages at this size (each message is appended; nothing else bounds it). */
export const MAX_NOTIFY_FILE_BYTES = 16 * 1024 * 1024;

export interface NotifyOptions {
  readonly core: Core;
  readonly log: Logger;
  readonly dataDir: string;
  readonly section: NotifySection;
  readonly templates: TemplateEngine;
}

/**
 * The notify services, as Home Assistant's legacy notify: `notify.<name>` per platform (file, group), `notify.notify`
 * to every platform, and `notify.persistent_notification`. A message or title with a template is rendered, as HA
 * renders them (parse_result=False).
 */
export class Notify implements Component {
  readonly name = 'notify';
  readonly owner = NOTIFY_OWNER;
  readonly optional = true;
  /** Each file's writes in order, one after another. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly o: NotifyOptions) {}

  async start(): Promise<void> {
    const { core, log, section } = this.o;
    for (const i of section.ignored) {
      log.warn(
        { platform: i.platform },
        'notify[%s] (platform: %s) is ignored: hearth has no %s integration',
        String(i.index),
        i.platform,
        i.platform,
      );
    }
    const register = core.services.register.bind(core.services, NOTIFY_OWNER);
    for (const platform of section.platforms) {
      register({
        domain: 'notify',
        service: platform.service,
        name: `Send a notification with ${platform.service}`,
        description: `Sends a notification message using the ${platform.service} integration.`,
        schema: { fields: NOTIFY_FIELDS },
        handler: (call) => this.send(platform, call.data),
      });
    }
    register({
      domain: 'notify',
      service: 'notify',
      name: 'Send a notification',
      description: 'Sends a notification message to every configured notify platform.',
      schema: { fields: NOTIFY_FIELDS },
      handler: async (call) => {
        for (const platform of section.platforms) await this.send(platform, call.data);
      },
    });
    register({
      domain: 'notify',
      service: 'persistent_notification',
      name: 'Send a persistent notification',
      description: 'Sends a notification that is visible in the notifications panel.',
      schema: { fields: PERSISTENT_NOTIFICATION_FIELDS },
      handler: (call) => {
        const { message, title, data } = call.data;
        const id = isJsonObject(data) && typeof data.notification_id === 'string' ? data.notification_id : undefined;
        core.notifications.create(this.render(String(message)), title === undefined ? null : this.render(String(title)), id);
      },
    });
  }

  private render(text: string): string {
    const out = this.o.templates.tryRender(text, { name: 'notify message' });
    if (!out.ok) throw new HubError('service_validation', `Error rendering the message: ${out.error.message}`);
    return out.text;
  }

  private async send(platform: NotifyPlatformConfig, data: ValidData): Promise<void> {
    const message = this.render(String(data.message));
    const title = data.title === undefined ? undefined : this.render(String(data.title));
    if (platform.platform === 'group') {
      for (const target of platform.services) {
        const payload: Record<string, unknown> = { ...data, message, ...(title === undefined ? {} : { title }) };
        if (target.data !== undefined) payload.data = { ...(isJsonObject(data.data) ? data.data : {}), ...target.data };
        await this.o.core.services.call('notify', target.service, payload as ValidData);
      }
      return;
    }
    await this.append(platform.filename, message, title ?? TITLE_DEFAULT, platform.timestamp);
  }

  /** file/notify.py send_message: a header line when the file is new or empty, then the message (with its time). */
  private append(filename: string, message: string, title: string, timestamp: boolean): Promise<void> {
    const path = join(this.o.dataDir, filename);
    const previous = this.writing.get(path) ?? Promise.resolve();
    const next = previous.then(async () => {
      const size = await stat(path).then(
        (s) => s.size,
        () => -1,
      );
      if (size >= MAX_NOTIFY_FILE_BYTES)
        throw new HubError('hub_error', `${filename} is full (${MAX_NOTIFY_FILE_BYTES} bytes): move it aside to log more`);
      if (size < 0) await mkdir(dirname(path), { recursive: true });
      const now = isoFromMicros(this.o.core.clock.now());
      const header = size <= 0 ? `${title} notifications (Log started: ${now})\n${'-'.repeat(80)}\n` : '';
      await appendFile(path, `${header}${timestamp ? `${now} ${message}` : message}\n`, 'utf8');
    });
    const settled = next.catch(() => undefined);
    this.writing.set(path, settled);
    void settled.then(() => {
      if (this.writing.get(path) === settled) this.writing.delete(path);
    });
    return next;
  }

  async stop(): Promise<void> {
    this.o.core.services.removeOwner(NOTIFY_OWNER);
    await Promise.all(this.writing.values());
  }
}

type NotifySections = { readonly notify: SectionParser<NotifySection | undefined>; readonly default_config: SectionParser<boolean> };

/** `notify:`: the notify services (on with the section or `default_config:`); a broken platform is left out alone. */
export const notifyIntegration: Integration<NotifySections, Notify> = {
  name: NOTIFY_OWNER,
  sections: { notify: optionalSection(parseNotifySection), default_config: parseDefaultConfig },
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, { notify, default_config }) =>
    notify === undefined && !default_config
      ? undefined
      : new Notify({
          core: ctx.core,
          log: ctx.log,
          dataDir: ctx.dataDir,
          section: notify ?? { platforms: [], ignored: [] },
          templates: ctx.templates,
        }),
};
