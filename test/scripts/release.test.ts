import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { BUILT_CLI, runCli, ServeProcess } from '../cli/cli-process.js';
import { withoutCoverage } from '../helpers/child-env.js';

/**
 * `make release` is `npm run build` and then scripts/release.mjs; this runs the script on the build `make test`
 * made (the one test/cli/built.test.ts runs), so the suite builds once. The script installs the production
 * packages with npm (from its cache when it has them).
 */
const ROOT = packageRoot();
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NAME = `hearth-${VERSION}`;

// npm ci and tar on a busy machine: well within this, about 40 s alone.
t.setTimeout(300_000);

function run(file: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd, env: withoutCoverage(process.env), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

t.before(() => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (make test does)`);
});

t.test('the release tarball: the bundle, the unit, install.sh, production packages only, and it serves the demo', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-release-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const said = await run(process.execPath, [join(ROOT, 'scripts', 'release.mjs'), '--out', dir], ROOT, 240_000);
  t.match(said, new RegExp(`${NAME}\\.tar\\.gz: [\\d.]+ MB; unpacked [\\d.]+ MB`), 'it says how big it is');
  const tarball = join(dir, `${NAME}.tar.gz`);
  t.ok(existsSync(tarball));
  t.same(
    (await run('find', [dir, '-mindepth', '1', '-maxdepth', '1'], dir, 10_000)).trim().split('\n'),
    [tarball],
    'nothing else is left in the output folder',
  );

  // `tar -tvzf`: mode, owner, size, date, time, path.
  const listing = (await run('tar', ['-tvzf', tarball], dir, 60_000)).trim().split('\n');
  const entries = new Map(listing.map((line) => [line.split(/\s+/).slice(5).join(' '), line.split(/\s+/)]));
  const paths = [...entries.keys()];
  t.ok(
    paths.every((p) => p.startsWith(`${NAME}/`)),
    `everything is in ${NAME}/`,
  );
  for (const file of [
    'dist/hearth/cli.js',
    // The files loaded only with their sections (scripts/bundle.mjs).
    'dist/hearth/mqtt.cjs',
    'dist/hearth/hap.cjs',
    'dist/hearth/ciao.cjs',
    'dist/hearth/matter.cjs',
    // Device types the Matter bridge loads when it first bridges one (LAZY_GROUPS in scripts/bundle-matter.mjs).
    'dist/hearth/matter-door-lock.cjs',
    'dist/hearth/matter-thermostat.cjs',
    'dist/hearth/matter-window-covering.cjs',
    'release.json',
    'package.json',
    'systemd/hearth.service',
    'scripts/install.sh',
    'config/starter.yaml',
    'config/demo.yaml',
    'src/web/assets/hearth.css',
    'drivers/gpio/gpio-helper.py',
    'docs/install.md',
    // The Pi's binaries: armhf (32-bit Raspberry Pi OS) and arm64, for Node 20's ABI.
    'node_modules/uWebSockets.js/binaries/uws_linux_arm_115.node',
    'node_modules/uWebSockets.js/binaries/uws_linux_arm64_115.node',
    'node_modules/@serialport/bindings-cpp/prebuilds/linux-arm/@serialport+bindings-cpp.armv7.glibc.node',
    'node_modules/@serialport/bindings-cpp/prebuilds/linux-arm64/@serialport+bindings-cpp.armv8.glibc.node',
    // Optional, as sources: install.sh builds them on the Pi when it has the tools.
    'node_modules/onoff/package.json',
    'node_modules/i2c-bus/binding.gyp',
  ]) {
    t.ok(entries.has(`${NAME}/${file}`), file);
  }
  t.match(entries.get(`${NAME}/scripts/install.sh`)?.[0], /^-rwx/, 'install.sh is executable');
  t.match(entries.get(`${NAME}/dist/hearth/cli.js`)?.[0], /^-rwx/, 'cli.js is executable');
  t.equal(entries.get(`${NAME}/package.json`)?.[1], '0/0', 'owned by root, whoever made it');

  // Every package the lock marks as only for development is absent: tap, typescript, playwright-core, biome, ...
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const dev = Object.entries(lock.packages)
    .filter(([, entry]) => entry.dev === true)
    .map(([path]) => `${NAME}/${path}/`);
  t.ok(dev.length > 50, `the lock lists the dev packages (${dev.length})`);
  for (const name of ['tap', 'typescript', 'playwright-core', '@biomejs/biome', 'esbuild', 'tsx']) {
    t.ok(dev.includes(`${NAME}/node_modules/${name}/`), `${name} is a dev package`);
  }
  t.same(
    paths.filter((p) => dev.some((d) => p.startsWith(d))),
    [],
    'no dev package',
  );
  t.same(
    paths.filter((p) => /\/(dist\/(src|drivers)|\.builds|test|bench)\//.test(p.slice(NAME.length)) && !p.includes('/node_modules/')),
    [],
    'no tsc output, tests or benchmarks',
  );
  t.same(
    paths.filter((p) => /uws_(darwin|win32)_|uws_linux_[a-z0-9]+_(93|108)\.node|\/prebuilds\/(darwin|win32|android)/.test(p)),
    [],
    "no other platforms' binaries",
  );
  t.same(
    paths.filter((p) => /\/build\/Release\//.test(p)),
    [],
    'nothing built on this machine',
  );

  // Unpacked elsewhere, it runs on its own: token, starter configuration, the demo over REST.
  const unpacked = join(dir, 'unpacked');
  await run('mkdir', ['-p', unpacked], dir, 10_000);
  await run('tar', ['-C', unpacked, '-xzf', tarball], dir, 60_000);
  const release = { release: join(unpacked, NAME) };
  const checked = await runCli(['check-config', '--config', join(unpacked, NAME, 'config', 'starter.yaml')], { build: release });
  t.equal(checked.code, 0, `the starter configuration is valid: ${checked.stdout}${checked.stderr}`);
  const data = join(dir, 'data');
  const created = await runCli(['token', 'create', '--data', data, '--name', 'release'], { build: release });
  t.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();
  const p = new ServeProcess(['--data', data, '--host', '127.0.0.1', '--port', '0'], undefined, release);
  t.teardown(() => p.kill());
  const port = (await p.waitForLog('API listening')).port as number;
  await p.waitForLog('hearth started');
  const api = await fetch(`http://127.0.0.1:${port}/api/`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(api.status, 200);
  t.same(await api.json(), { message: 'API running.' });
  const states = (await (
    await fetch(`http://127.0.0.1:${port}/api/states`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as unknown[];
  t.ok(states.length > 20, `the demo's entities (${states.length})`);
  const stopped = await p.stop('SIGTERM', 5_000);
  t.equal(stopped.code, 0, `exit 0 (stderr: ${p.stderr})`);
  t.equal(p.stderr, '');
});
