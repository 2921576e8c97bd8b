// The Matter bridge as an optional part: configured by `matter:`, matter.js loaded only then.
import type { Integration } from '../integration/integration.js';
import { optionalSection } from '../integration/integration.js';
import { MatterBridge } from './bridge.js';
import { parseMatter } from './config.js';

export { MatterBridge } from './bridge.js';

export const matterIntegration: Integration<{ matter: ReturnType<typeof optionalSection<ReturnType<typeof parseMatter>>> }, MatterBridge> =
  {
    name: 'matter',
    sections: { matter: optionalSection(parseMatter) },
    create(ctx, config) {
      return config.matter === undefined ? undefined : new MatterBridge(ctx, config.matter, ctx.log);
    },
  };
