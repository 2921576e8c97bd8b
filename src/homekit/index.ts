// The HomeKit bridge as an optional part: configured by `homekit:`, hap-nodejs loaded only then.
import type { Integration } from '../integration/integration.js';
import { optionalSection } from '../integration/integration.js';
import { HomekitBridge } from './bridge.js';
import { parseHomekit } from './config.js';

export { HomekitBridge } from './bridge.js';

export const homekitIntegration: Integration<
  { homekit: ReturnType<typeof optionalSection<ReturnType<typeof parseHomekit>>> },
  HomekitBridge
> = {
  name: 'homekit',
  sections: { homekit: optionalSection(parseHomekit) },
  create(ctx, config) {
    return config.homekit === undefined ? undefined : new HomekitBridge(ctx, config.homekit, ctx.log);
  },
};
