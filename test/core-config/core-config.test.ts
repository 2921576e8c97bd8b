import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';

const config = (name: string, icon: string) =>
  [
    'homeassistant:',
    `  name: ${name}`,
    '  customize:',
    '    input_boolean.porch:',
    `      icon: ${icon}`,
    'input_boolean:',
    '  porch:',
    '    name: Porch',
    '',
  ].join('\n');

t.test('homeassistant.reload_core_config reads homeassistant: again: its core keys and customize', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-core-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(file, config('Home', 'mdi:lamp'));
  const hub = await startTestHub(t, { configFile: file });
  const state = async () => (await (await hub.api('/api/states/input_boolean.porch')).json()) as { attributes: { icon?: string } };
  t.equal((await state()).attributes.icon, 'mdi:lamp');

  await writeFile(file, config('Beach House', 'mdi:outdoor-lamp'));
  const res = await hub.api('/api/services/homeassistant/reload_core_config', { method: 'POST', body: '{}' });
  t.equal(res.status, 200);
  t.equal((await state()).attributes.icon, 'mdi:outdoor-lamp');
  const shown = (await (await hub.api('/api/config')).json()) as { location_name: string };
  t.equal(shown.location_name, 'Beach House');

  await writeFile(file, config('Broken', 'mdi:x').replace('  name: Broken', '  latitude: 500'));
  const bad = await hub.api('/api/services/homeassistant/reload_core_config', { method: 'POST', body: '{}' });
  t.equal(bad.status, 400, "Home Assistant's HomeAssistantError");
  t.match(await bad.text(), /configuration has errors, keeping the current one/);
  t.equal((await state()).attributes.icon, 'mdi:outdoor-lamp', 'kept');
});
