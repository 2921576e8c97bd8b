import type { Logger } from '../../src/core/log.js';

export type Herdsman = typeof import('zigbee-herdsman');

/**
 * Loads herdsman and the converters, the first time a `zigbee:` section starts (about 80 MB and 200 ms that a hub
 * without Zigbee never pays), and routes their log lines to the hub's logger: their chatty info lines as debug.
 */
export async function loadHerdsman(log: Logger): Promise<Herdsman> {
  const [herdsman, converters] = await Promise.all([import('zigbee-herdsman'), import('zigbee-herdsman-converters')]);
  const text = (m: string | (() => string)): string => (typeof m === 'function' ? m() : m);
  const routed = {
    debug: () => {},
    // Their text may carry what a device sent: a value, so the logger bounds it and counts it as one kind of line.
    info: (m: string | (() => string), ns: string) => log.debug({ ns }, '%s', text(m)),
    warning: (m: string | (() => string), ns: string) => log.warn({ ns }, '%s', text(m)),
    error: (m: string | (() => string), ns: string) => log.error({ ns }, '%s', text(m)),
  };
  herdsman.setLogger(routed);
  converters.setLogger(routed);
  return herdsman;
}
