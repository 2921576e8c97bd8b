import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { HubConfig, HubSection } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Broken } from '../integration/integration.js';
import { reloadSections } from '../integration/reload.js';
import { TemplateDispatch, TemplateEngine } from '../template/index.js';
import { TraceStore } from '../trace/store.js';
import type { Scheduler } from '../util/scheduler.js';
import { AUTOMATION_OWNER, AutomationSet } from './automations.js';
import { CLIENT_RUN_OWNER, ClientAutomation } from './client-api.js';
import { TimeZone } from './local-time.js';
import type { AutomationDefinition, SceneDefinition, ScriptDefinition } from './model.js';
import { parseAutomations, parseScenes, parseScripts } from './parse-sections.js';
import { applyStates, SCENE_OWNER, SceneSet, sceneEntitiesFromData } from './scenes.js';
import { SCRIPT_OWNER, ScriptSet } from './scripts.js';
import { StateDispatch } from './state-dispatch.js';
import type { HubLocation } from './sun.js';
import { SUN_OWNER, SunEntity } from './sun-entity.js';
import { traceValue } from './trace-values.js';
import type { MqttTriggerSource, TriggerEnv } from './triggers.js';
import { UnavailableAutomations } from './unavailable.js';

/** What the `automation:`, `script:`, `scene:` and `sun:` sections configure, as read at load. */
export interface AutomationSections {
  readonly automation: readonly AutomationDefinition[];
  readonly script: readonly ScriptDefinition[];
  readonly scene: readonly SceneDefinition[];
  /** `sun:` is in the configuration: the sun.sun entity. */
  readonly sun: boolean;
}

/** `sun:` (empty) adds the sun.sun entity, as Home Assistant's sun integration; it takes no options. */
export function parseSunSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): boolean {
  if (value !== undefined && value !== null && !(isJsonObject(value) && Object.keys(value).length === 0)) {
    issues.push({ path, message: 'takes no options: write `sun:` alone; the location comes from hub: latitude/longitude' });
  }
  return value !== undefined;
}

export interface AutomationExtensionOptions {
  /** The sections as read at load. */
  readonly definitions: AutomationSections;
  /**
   * Reads the configuration file again for the reload services. Without it, `<domain>.reload`
   * re-creates everything from the definitions it started with.
   */
  readonly reloadConfig?: () => Promise<HubConfig>;
  /** The broker connection `mqtt` triggers subscribe through (the MQTT component, when configured). */
  readonly mqtt?: MqttTriggerSource;
  /** The hub's template engine (shared with the API); without it, one of the extension's own. */
  readonly templates?: TemplateEngine;
  /** Timers on the hub's clock for `for:`, delays and wait timeouts (a manual one in tests); Node's own without it. */
  readonly scheduler?: Scheduler;
  /** Items left out of the sections for their problems: a broken automation is shown as unavailable. */
  readonly broken?: readonly Broken[];
}

/** Owner of the services that live as long as the extension (reloads, scene.apply, scene.create). */
const SERVICES_OWNER = 'automation-extension';
const OWNERS = [AUTOMATION_OWNER, SCRIPT_OWNER, SCENE_OWNER, SERVICES_OWNER, SUN_OWNER, CLIENT_RUN_OWNER];
type Section = 'automation' | 'script' | 'scene';

/**
 * Automations, scripts and scenes: parses their sections, creates their entities and per-script services,
 * attaches triggers, and offers the reload, scene.apply and scene.create services. Everything it
 * registers is under its owner keys and removed by stop().
 */
export class AutomationExtension implements Component {
  readonly name = 'automations';
  /** A broken automation file must not take the API down: logged, and the hub carries on. */
  readonly optional = true;
  private readonly timeZone: TimeZone;
  private readonly templates: TemplateEngine;
  private states: StateDispatch | undefined;
  private templateChanges: TemplateDispatch | undefined;
  private automations: AutomationSet | undefined;
  private unavailable: UnavailableAutomations | undefined;
  private scripts: ScriptSet | undefined;
  private scenes: SceneSet | undefined;
  private sun: SunEntity | undefined;
  /** The traces of the last runs of each automation and script (in memory; kept across reloads). */
  readonly traces: TraceStore;
  /** subscribe_trigger, execute_script and validate_config for the WebSocket API. */
  readonly client: ClientAutomation;

  constructor(
    readonly core: Core,
    private readonly hub: HubSection,
    readonly log: Logger,
    private readonly options: AutomationExtensionOptions,
  ) {
    const zone = TimeZone.of(hub.time_zone);
    if (zone === undefined) log.error({ time_zone: hub.time_zone }, `unknown time zone ${hub.time_zone}; time triggers use UTC`);
    this.timeZone = zone ?? TimeZone.UTC;
    this.templates = options.templates ?? new TemplateEngine({ core, timeZone: zone === undefined ? 'UTC' : hub.time_zone });
    this.traces = new TraceStore({ clock: core.clock, plain: traceValue });
    this.client = new ClientAutomation({
      core,
      log,
      timeZone: this.timeZone,
      location: this.location(),
      templates: this.templates,
      mqtt: options.mqtt,
    });
  }

  async start(): Promise<void> {
    const { core } = this;
    const starting = core.runState === 'NOT_RUNNING' || core.runState === 'STARTING';
    this.states = new StateDispatch(core.bus, AUTOMATION_OWNER, (err) => this.log.error({ err }, 'state trigger failed'));
    this.templateChanges = new TemplateDispatch(core.bus, AUTOMATION_OWNER, (err) => this.log.error({ err }, 'template trigger failed'));
    const { script: scripts, scene: scenes, automation: automations, sun } = this.options.definitions;

    this.scripts = new ScriptSet(this.env(false));
    this.scripts.start(scripts);
    this.scenes = new SceneSet(core, this.log);
    this.scenes.start(scenes);
    this.automations = new AutomationSet(this.env(starting));
    this.automations.start(automations);
    this.showUnavailable(this.options.broken ?? [], automations);
    this.registerServices();
    if (sun) {
      this.sun = new SunEntity(core, this.location(), (err) => this.log.error({ err }, 'sun.sun update failed'), this.options.scheduler);
      this.sun.start();
    }
    this.log.info({ automations: automations.length, scripts: scripts.length, scenes: scenes.length }, 'automations started');
  }

  async stop(): Promise<void> {
    await this.automations?.settleShutdownRuns();
    this.automations?.stop();
    this.unavailable?.stop();
    this.scripts?.stop();
    this.scenes?.stop();
    this.sun?.stop();
    this.sun = undefined;
    this.client.stop();
    this.states?.close();
    this.templateChanges?.close();
    this.automations = undefined;
    this.scripts = undefined;
    this.scenes = undefined;
    for (const owner of OWNERS) {
      this.core.bus.removeOwner(owner);
      this.core.services.removeOwner(owner);
      this.core.entities.removeOwner(owner);
    }
  }

  private showUnavailable(broken: readonly Broken[], running: readonly AutomationDefinition[]): void {
    this.unavailable?.stop();
    this.unavailable = new UnavailableAutomations(this.core, this.log);
    this.unavailable.start(
      broken,
      running.map((d) => d.objectId),
    );
  }

  private location(): HubLocation {
    return { latitude: this.hub.latitude, longitude: this.hub.longitude };
  }

  private env(starting: boolean): TriggerEnv {
    return {
      core: this.core,
      log: this.log,
      timeZone: this.timeZone,
      location: this.location(),
      states: this.states as StateDispatch,
      templateChanges: this.templateChanges as TemplateDispatch,
      owner: AUTOMATION_OWNER,
      starting,
      mqtt: this.options.mqtt,
      templates: this.templates,
      traces: this.traces,
      scheduler: this.options.scheduler,
    };
  }

  /**
   * Reads the configuration again (when a reader was given) and returns one section's definitions: a broken item is
   * left out alone and named in a persistent notification, the rest reloaded, as Home Assistant's reload does.
   */
  private async reloadSection<T>(
    section: Section,
    parse: (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]) => T,
    onBroken?: (broken: readonly Broken[]) => void,
  ): Promise<T> {
    const reloadConfig = this.options.reloadConfig;
    if (reloadConfig === undefined) return this.options.definitions[section] as T;
    const read = await reloadSections({
      domain: section,
      sections: { [section]: parse },
      itemOf: (path) => path.slice(0, 2),
      reloadConfig,
      core: this.core,
      log: this.log,
      onBroken,
    });
    return read[section] as T;
  }

  private registerServices(): void {
    const { core } = this;
    const register = core.services.register.bind(core.services, SERVICES_OWNER);
    register({
      domain: 'automation',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads the automation configuration.',
      schema: { fields: {} },
      handler: async (call) => {
        let broken: readonly Broken[] = [];
        const definitions = await this.reloadSection('automation', parseAutomations, (b) => {
          broken = b;
        });
        this.automations?.stop();
        this.automations = new AutomationSet(this.env(false));
        this.automations.start(definitions);
        this.showUnavailable(broken, definitions);
        core.bus.fire('automation_reloaded', {}, call.context);
      },
    });
    register({
      domain: 'script',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads all the available scripts.',
      schema: { fields: {} },
      handler: async () => {
        const definitions = await this.reloadSection('script', parseScripts);
        this.scripts?.stop();
        this.scripts = new ScriptSet(this.env(false));
        this.scripts.start(definitions);
      },
    });
    register({
      domain: 'scene',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads the scenes from the YAML-configuration.',
      schema: { fields: {} },
      handler: async (call) => {
        const definitions = await this.reloadSection('scene', parseScenes);
        this.scenes?.stop();
        this.scenes = new SceneSet(core, this.log);
        this.scenes.start(definitions);
        core.bus.fire('scene_reloaded', {}, call.context);
      },
    });
    register({
      domain: 'scene',
      service: 'apply',
      name: 'Apply',
      description: 'Activates a scene with configuration.',
      schema: {
        fields: {
          entities: { kind: 'object', required: true, description: 'List of entities and their target state.' },
          transition: { kind: 'number', min: 0, max: 300, unit: 'seconds', description: 'Time it takes the devices to transition.' },
        },
      },
      handler: (call) => applyStates(core, this.log, sceneEntitiesFromData(call.data.entities, 'entities'), call.context),
    });
    register({
      domain: 'scene',
      service: 'create',
      name: 'Create',
      description: 'Creates a new scene.',
      schema: {
        fields: {
          scene_id: { kind: 'text', required: true, description: 'The entity ID of the new scene (without the scene. prefix).' },
          entities: { kind: 'object', description: 'List of entities and their target state.' },
          snapshot_entities: { kind: 'entities', description: 'List of entities to be included in the snapshot.' },
        },
      },
      handler: (call) => {
        const { scene_id: sceneId, entities, snapshot_entities: snapshot } = call.data;
        if (entities === undefined && snapshot === undefined) {
          throw new HubError('invalid_service_data', 'Either "entities" or "snapshot_entities" must be specified');
        }
        const states = entities === undefined ? new Map() : sceneEntitiesFromData(entities, 'entities');
        const scenes = this.scenes;
        if (scenes === undefined) throw new HubError('hub_error', 'Scenes are not running');
        scenes.create(String(sceneId), states, (snapshot as string[] | undefined) ?? [], call.context);
      },
    });
  }
}
