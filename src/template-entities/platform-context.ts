import type { ScriptRunner } from '../automation/runner.js';
import type { TriggerEnv } from '../automation/triggers.js';
import type { Core } from '../core/core.js';
import type { TemplateRenderer, TemplateWriter } from './entity.js';

/** One template entity: its renderer, its writer, and the state it shows without a state template. */
export interface TemplateItem {
  readonly renderer: TemplateRenderer;
  readonly writer: TemplateWriter;
  /** The last state set (optimistic switch, number, select) or, for a button, its last press. */
  optimistic(): string | null;
  /** Trigger-based entities render only when their block's triggers fire. */
  readonly triggered: boolean;
}

/** What adding a template entity needs from its component. */
export interface PlatformContext {
  readonly core: Core;
  readonly env: TriggerEnv;
  /** The action runners, stopped with the component. */
  readonly runners: ScriptRunner[];
  /** Renders the item again (its optimistic state changed). */
  render(item: TemplateItem): void;
}
