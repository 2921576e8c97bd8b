import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Logger } from '../core/log.js';
import type { BackoffOptions } from '../util/backoff.js';
import type { Scheduler } from '../util/scheduler.js';
import type { AnyIntegration, Integration, IntegrationContext, SectionParsers, Stage } from './integration.js';
import { IsolatedPart } from './part.js';
import { SetupProblems } from './problems.js';
import { setupOf, unreadSections } from './setup.js';

/** What every part's context shares; the owner, log and scheduler scope are each part's own. */
export type SharedContext = Omit<IntegrationContext, 'owner' | 'log' | 'scheduler'>;

export interface PartsOptions {
  /** In start order (within each stage). */
  readonly integrations: readonly AnyIntegration[];
  readonly config: HubConfig;
  readonly shared: SharedContext;
  readonly log: Logger;
  /** The hub's timers. */
  readonly scheduler: Scheduler;
  readonly startTimeoutMs: number;
  readonly retry?: BackoffOptions;
}

/**
 * The hub's integrations as isolated parts, by stage for the composition root's list, and each part's current
 * component for the API and the hub's getters. Problems of sections no part reads (an unknown section) are named
 * at once, and the sections otherwise ignored.
 */
export class Parts {
  private readonly parts = new Map<string, IsolatedPart>();
  private readonly stages = new Map<Stage, IsolatedPart[]>();
  private readonly problems: SetupProblems;

  constructor(o: PartsOptions) {
    const { core } = o.shared;
    this.problems = new SetupProblems(core, o.log.child({ module: 'setup' }));
    const reads = new Set<string>();
    for (const integration of o.integrations) {
      for (const section of Object.keys(integration.sections)) reads.add(section);
      const log = o.log.child({ module: integration.name });
      const part = new IsolatedPart({
        integration,
        setup: setupOf(integration, o.config),
        context: (scheduler) => ({ ...o.shared, owner: integration.name, log, scheduler }),
        scheduler: o.scheduler,
        problems: this.problems,
        startTimeoutMs: o.startTimeoutMs,
        retry: o.retry,
      });
      if (this.parts.has(integration.name)) throw new Error(`two integrations are named ${integration.name}`);
      this.parts.set(integration.name, part);
      const stage = integration.stage ?? 'devices';
      this.stages.set(stage, [...(this.stages.get(stage) ?? []), part]);
    }
    // The hub's own sections (areas, customize) use what they can; an unknown one is ignored.
    for (const { name, reason } of unreadSections(o.config, (section) => reads.has(section))) this.problems.report(name, reason);
  }

  /** The parts that start at `stage`, in list order. */
  stage(stage: Stage): readonly Component[] {
    return this.stages.get(stage) ?? [];
  }

  /** The running (or starting) component of `integration`, typed as it makes it; undefined when it is off. */
  get<P extends Component>(integration: Integration<SectionParsers, P>): P | undefined {
    return this.parts.get(integration.name)?.current as P | undefined;
  }
}
