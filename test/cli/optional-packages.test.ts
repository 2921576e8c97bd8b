import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Teardown } from '../helpers/hub.js';
import { BUILT_CLI, type CliBuild, ServeProcess } from './cli-process.js';

/**
 * The packages for integrations to come (HomeKit: hap-nodejs, @homebridge/ciao, tweetnacl; Matter: @matter/main) are
 * large and start timers, sockets and crypto when loaded: a hub whose configuration has no section for them must
 * not load a file of them. The demo hub runs with a hook that records every module it resolves (ES modules) and
 * requires (CommonJS), from the sources and from the bundle systemd runs (which keeps them outside, or in files of their
 * own: hap.cjs, ciao.cjs and matter.cjs, scripts/bundle.mjs).
 */
const OPTIONAL =
  /[\\/]node_modules[\\/](hap-nodejs|@matter|@homebridge[\\/]ciao|tweetnacl|@project-chip)[\\/]|[\\/](hap|ciao|matter)\.cjs$/;
const HOOK = fileURLToPath(new URL('./loaded-modules-hook.mjs', import.meta.url));

async function loadedModules(t: Teardown, build: CliBuild): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-optional-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const list = join(dir, 'loaded.txt');
  const hub = new ServeProcess(
    ['--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0'],
    { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${HOOK}`, HEARTH_LOADED_MODULES: list },
    build,
  );
  t.teardown(() => hub.child.kill('SIGKILL'));
  await hub.waitForLog('hearth started');
  hub.child.kill('SIGTERM');
  await hub.exited;
  return (await readFile(list, 'utf8')).split('\n').filter(Boolean);
}

for (const build of ['source', 'built'] as const) {
  t.test(`the demo hub (${build}) loads none of the HomeKit and Matter packages`, async (t) => {
    if (build === 'built' && !existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (make test does)`);
    const loaded = await loadedModules(t, build);
    t.ok(
      loaded.some((m) => m.includes('uWebSockets.js')),
      'the record is complete (uWebSockets.js, a package the hub does load, is in it)',
    );
    t.same(
      loaded.filter((m) => OPTIONAL.test(m)),
      [],
      'no file of hap-nodejs, @matter/*, @homebridge/ciao or tweetnacl, nor hearth/matter.cjs',
    );
  });
}
