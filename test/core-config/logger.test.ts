import { Writable } from 'node:stream';
import t from 'tap';
import type { ConfigIssue } from '../../src/config/reader.js';
import { modulesOf, parseLoggerSection } from '../../src/core-config/logger.js';
import { createLogger } from '../../src/util/logger.js';
import { startTestHub } from '../helpers/hub.js';

t.test("logger: Home Assistant's levels and logger names, each problem named", async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseLoggerSection(
    {
      default: 'warning',
      logs: { 'homeassistant.components.mqtt': 'debug', 'custom_components.hacs': 'critical', 'homeassistant.core': 'loud' },
    },
    ['logger'],
    issues,
  );
  t.equal(config.default, 'warn');
  t.same(
    [...config.logs],
    [
      ['homeassistant.components.mqtt', 'debug'],
      ['custom_components.hacs', 'fatal'],
    ],
  );
  t.same(
    issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    ['logger.logs.homeassistant.core: "loud" is not allowed: expected one of critical, fatal, error, warning, warn, info, debug, notset'],
  );
  const bad: ConfigIssue[] = [];
  parseLoggerSection({ default: 'chatty', level: 'info' }, ['logger'], bad);
  t.match(
    bad.map((i) => i.message),
    [/"chatty" is not allowed: expected one of critical/, /unknown option; allowed: default, filters, logs/],
  );
  t.same(modulesOf('homeassistant.components.mqtt'), ['mqtt']);
  t.same(modulesOf('homeassistant.components.recorder'), ['recorder']);
  t.same(modulesOf('homeassistant.helpers.template'), ['template']);
  t.same(modulesOf('custom_components.hacs'), []);
});

t.test("a module's level, set while the hub runs, lets its debug lines through and no other's", async (t) => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const { log, levels, flush } = createLogger({ level: 'info', destination });
  const mqtt = log.child({ module: 'mqtt' });
  const recorder = log.child({ module: 'recorder' });
  mqtt.debug('mqtt before');
  levels.setModule('mqtt', 'debug');
  mqtt.debug('mqtt after');
  mqtt.child({ part: 'client' }).debug('mqtt client');
  recorder.debug('recorder debug');
  levels.setDefault('error');
  recorder.info('recorder info');
  recorder.error('recorder error');
  flush();
  const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
  t.same(messages, ['mqtt after', 'mqtt client', 'recorder error']);
});

t.test('logger.set_level and set_default_level are there, with or without a logger: section', async (t) => {
  const hub = await startTestHub(t);
  const call = (service: string, body: object) =>
    hub.api(`/api/services/logger/${service}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  t.equal((await call('set_level', { 'homeassistant.components.mqtt': 'debug' })).status, 200);
  t.equal((await call('set_default_level', { level: 'warning' })).status, 200);
  t.equal((await call('set_level', { 'homeassistant.components.mqtt': 'loud' })).status, 400);
});
