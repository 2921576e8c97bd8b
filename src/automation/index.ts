import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import type { Core } from '../core/core.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';

/** Validators for the `automation:`, `script:` and `scene:` sections (check-config uses them). */
export const AUTOMATION_SECTION_VALIDATORS: Record<string, (value: JsonValue, path: ConfigPath, issues: ConfigIssue[]) => void> = {};

// Stub: replaced by automations, scripts and scenes.
export class AutomationExtension {
  constructor(
    readonly core: Core,
    readonly config: HubConfig,
    readonly log: Logger,
  ) {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
