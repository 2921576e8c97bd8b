import type { Level } from 'pino';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import type { Component } from '../core/component.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { Integration, IntegrationContext, SectionParser } from '../integration/integration.js';

/** Home Assistant's level names (components/logger/const.py LOGSEVERITY) and pino's for each. */
const LEVELS: Readonly<Record<string, Level>> = {
  critical: 'fatal',
  fatal: 'fatal',
  error: 'error',
  warning: 'warn',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  notset: 'trace',
};
const LEVEL_NAMES = Object.keys(LEVELS);

/**
 * Home Assistant's logger names and hearth's modules: `homeassistant.components.<domain>` is the part of that name
 * (mqtt, recorder, automation, template...); a few of Home Assistant's core loggers have a module of their own.
 * Any other name (custom_components.*, a library's) is accepted and reaches no module.
 */
const CORE_LOGGERS: Readonly<Record<string, readonly string[]>> = {
  'homeassistant.components.http': ['http', 'web'],
  'homeassistant.components.api': ['api'],
  'homeassistant.components.websocket_api': ['api'],
  'homeassistant.components.auth': ['auth'],
  'homeassistant.components.input_boolean': ['helpers'],
  'homeassistant.components.input_number': ['helpers'],
  'homeassistant.components.input_select': ['helpers'],
  'homeassistant.components.input_text': ['helpers'],
  'homeassistant.components.input_datetime': ['helpers'],
  'homeassistant.components.input_button': ['helpers'],
  'homeassistant.components.counter': ['helpers'],
  'homeassistant.components.timer': ['helpers'],
  'homeassistant.components.script': ['automation'],
  'homeassistant.components.scene': ['automation'],
  'homeassistant.components.zha': ['zigbee'],
  'homeassistant.components.generic_thermostat': ['thermostat'],
  'homeassistant.helpers.entity_registry': ['registry'],
  'homeassistant.helpers.device_registry': ['registry'],
  'homeassistant.helpers.template': ['template'],
  'homeassistant.helpers.script': ['automation'],
  'homeassistant.components.recorder': ['recorder'],
  'homeassistant.helpers.restore_state': ['restore_state'],
  'homeassistant.setup': ['setup'],
  'homeassistant.bootstrap': ['setup'],
};

/** The modules a Home Assistant logger name reaches. */
export function modulesOf(name: string): readonly string[] {
  const own = CORE_LOGGERS[name];
  if (own !== undefined) return own;
  const domain = /^homeassistant\.components\.([a-z0-9_]+)$/.exec(name)?.[1];
  return domain === undefined ? [] : [domain];
}

export interface LoggerConfig {
  readonly default?: Level;
  /** Home Assistant's logger name -> level, in the file's order. */
  readonly logs: ReadonlyMap<string, Level>;
}

function level(value: JsonValue | undefined): Level | undefined {
  return typeof value === 'string' ? LEVELS[value.toLowerCase()] : undefined;
}

/** Reads `logger:` (Home Assistant's keys: default, logs, filters). */
export function parseLoggerSection(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): LoggerConfig {
  if (value === null) return { logs: new Map() };
  const r = ConfigReader.of(value, path, issues);
  const given = r.oneOf('default', LEVEL_NAMES);
  const logs = new Map<string, Level>();
  const rawLogs = r.raw('logs');
  if (rawLogs !== undefined && !isJsonObject(rawLogs))
    r.problem('logs', `expected a mapping of logger names to levels, got ${kindOf(rawLogs)}`);
  else if (rawLogs !== undefined) {
    for (const [name, v] of Object.entries(rawLogs)) {
      const l = level(v);
      if (l === undefined)
        issues.push({
          path: [...path, 'logs', name],
          message: `${JSON.stringify(v)} is not allowed: expected one of ${LEVEL_NAMES.join(', ')}`,
        });
      else logs.set(name, l);
    }
  }
  if (r.has('filters')) r.warn('filters', "accepted and not honoured: hearth's log has no per-logger message filters");
  r.rejectUnknown(['filters']);
  return { ...(given === undefined ? {} : { default: LEVELS[given] }), logs };
}

/** The levels of the `logger:` section and the logger.set_level and set_default_level services. */
export class LoggerPart implements Component {
  readonly name = 'logger';
  readonly optional = true;
  readonly owner = 'logger';

  constructor(
    private readonly ctx: IntegrationContext,
    private readonly config: LoggerConfig,
  ) {}

  async start(): Promise<void> {
    const { core } = this.ctx;
    if (this.config.default !== undefined) this.setDefault(this.config.default);
    for (const [name, l] of this.config.logs) this.setLevel(name, l);
    const levelField = { kind: 'select', options: LEVEL_NAMES, caseInsensitive: true } as const;
    core.services.register(this.owner, {
      domain: 'logger',
      service: 'set_default_level',
      name: 'Set default level',
      description: 'Sets the default log level for integrations.',
      schema: { fields: { level: { ...levelField, name: 'Level', description: 'Default severity level for all integrations.' } } },
      handler: (call) => {
        const l = level(call.data.level);
        if (l !== undefined) this.setDefault(l);
      },
    });
    core.services.register(this.owner, {
      domain: 'logger',
      service: 'set_level',
      name: 'Set level',
      description: 'Sets the log level for one or more integrations.',
      schema: { fields: {}, allowExtra: true },
      handler: (call) => {
        for (const [name, v] of Object.entries(call.data)) {
          const l = level(v);
          if (l === undefined)
            throw new HubError(
              'invalid_format',
              `${JSON.stringify(v)} is not allowed for ${name}: expected one of ${LEVEL_NAMES.join(', ')}`,
            );
        }
        for (const [name, v] of Object.entries(call.data)) this.setLevel(name, level(v) as Level);
      },
    });
  }

  async stop(): Promise<void> {
    this.ctx.core.services.removeOwner(this.owner);
  }

  private setDefault(l: Level): void {
    this.ctx.logLevels?.setDefault(l);
  }

  private setLevel(name: string, l: Level): void {
    for (const module of modulesOf(name)) this.ctx.logLevels?.setModule(module, l);
  }
}

export const loggerIntegration: Integration<{ logger: SectionParser<LoggerConfig | undefined> }, LoggerPart> = {
  name: 'logger',
  sections: { logger: (value, path, issues) => (value === undefined ? undefined : parseLoggerSection(value, path, issues)) },
  stage: 'core',
  // Always there, as in Home Assistant (one of its logging integrations, set up before the others).
  create: (ctx, { logger }) => new LoggerPart(ctx, logger ?? { logs: new Map() }),
};
