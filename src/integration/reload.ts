import type { ConfigPath } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import type { Core } from '../core/core.js';
import { HubError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Broken, ParsedSections, SectionParsers } from './integration.js';
import { setupOf } from './setup.js';

/** What a `<domain>.reload` re-reads: some of a part's sections, and how its problems map to items. */
export interface ReloadSpec<S extends SectionParsers> {
  /** The reloading domain: the notification's id and the messages name it. */
  readonly domain: string;
  readonly sections: S;
  readonly itemOf: (path: ConfigPath) => ConfigPath;
  readonly reloadConfig: () => Promise<HubConfig>;
  readonly core: Core;
  readonly log: Logger;
  /** Told what the reload left out (for parts that show such items, as HA shows a broken automation). */
  readonly onBroken?: (broken: readonly Broken[]) => void;
}

/** The persistent notification naming what a reload of `domain` left out. */
export function reloadNotificationId(domain: string): string {
  return `${domain}_reload_invalid_config`;
}

/**
 * Reads the configuration file again for `<domain>.reload`, as Home Assistant's reload does: only the domain's
 * sections, with each broken item left out alone (named in the log and in a persistent notification, dismissed by
 * the next clean reload) and the rest returned to be set up. A file that cannot be read at all (YAML syntax, the
 * document's shape) refuses the reload, keeping what runs.
 */
export async function reloadSections<S extends SectionParsers>(spec: ReloadSpec<S>): Promise<ParsedSections<S>> {
  const { domain, core, log } = spec;
  let config: HubConfig;
  try {
    config = await spec.reloadConfig();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new HubError('hub_error', `Cannot reload ${domain}: the configuration has errors, keeping the current one. ${message}`);
  }
  const setup = setupOf({ name: domain, sections: spec.sections, itemOf: spec.itemOf, create: () => undefined }, config);
  const id = reloadNotificationId(domain);
  spec.onBroken?.(setup.broken);
  if (setup.broken.length === 0) core.notifications.dismiss(id);
  else {
    for (const b of setup.broken) log.error({ item: b.name }, '%s.reload left out %s: %s', domain, b.name, b.reason);
    const lines = setup.broken.map((b) => ` - ${b.name}: ${b.reason}`).join('\n');
    core.notifications.create(
      `The following ${domain} items could not be reloaded; the others were:\n\n${lines}\n\nPlease check your config and the log.`,
      'Invalid config',
      id,
    );
  }
  // Without itemOf no part is ever undefined here: each broken item is left out and the rest read.
  return setup.config as ParsedSections<S>;
}
