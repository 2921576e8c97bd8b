// `make release`: dist/hearth-<version>.tar.gz, what a Raspberry Pi needs to run hearth without building
// anything: the bundle, the files it reads at run time, the production packages, the unit, the install script
// and a starter configuration. scripts/install.sh installs it (docs/install.md).
//
//   node scripts/release.mjs [--out DIR]   the tarball, in DIR (default dist/), from the current build
//   node scripts/release.mjs --stage DIR   the same files in DIR, unpacked (install.sh from a checkout)
//
// The packages come from npm itself, `npm ci --omit=dev --ignore-scripts` into the staging directory, so no
// dev package and nothing built for this machine goes in. uWebSockets.js and serialport's binding ship prebuilt
// binaries for every platform inside their packages; the ones a Linux board cannot load (macOS, Windows,
// Android, Node 16 and 18) are dropped, which takes uWebSockets.js from 113 MB to 18. onoff's epoll and i2c-bus
// ship only their C++ sources: install.sh builds them on the Pi when it has the tools, and hearth does without
// them otherwise (GPIO through the character device, drivers/gpio/gpio-helper.py).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const name = `hearth-${pkg.version}`;

/** What the hub reads at run time besides dist/hearth and node_modules (src/util/paths.ts's packageRoot users). */
const FILES = [
  'package.json', // packageRoot() looks for it; "type": "module"
  'package-lock.json',
  'README.md',
  'docs',
  'config', // demo.yaml (the bundled demo), starter.yaml (install.sh's first configuration), examples
  'src/web/assets', // the web pages' scripts and styles
  'drivers/gpio/gpio-helper.py', // GPIO through the character device
  'systemd/hearth.service',
  'scripts/install.sh',
];

/** Node 20's module ABI: the only uWebSockets.js binaries hearth can load (engines: >=20.19 <21). */
const NODE_ABI = '115';
const LINUX_ARCHES = ['arm', 'arm64', 'x64'];

/** Binaries the tarball must carry for a Pi: armhf (32-bit Raspberry Pi OS) and arm64. */
const REQUIRED_BINARIES = [
  `node_modules/uWebSockets.js/binaries/uws_linux_arm_${NODE_ABI}.node`,
  `node_modules/uWebSockets.js/binaries/uws_linux_arm64_${NODE_ABI}.node`,
  'node_modules/@serialport/bindings-cpp/prebuilds/linux-arm/@serialport+bindings-cpp.armv7.glibc.node',
  'node_modules/@serialport/bindings-cpp/prebuilds/linux-arm64/@serialport+bindings-cpp.armv8.glibc.node',
];

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

function option(flag) {
  const at = process.argv.indexOf(flag);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** Every directory under `dir` named `base` (node_modules nests packages). */
function* dirsNamed(dir, base) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === base) yield path;
    else yield* dirsNamed(path, base);
  }
}

/** Drops the prebuilt binaries no Linux board running Node 20 loads; returns the bytes saved. */
function dropForeignBinaries(modules) {
  let saved = 0;
  const size = (path) => {
    const s = statSync(path);
    return s.isDirectory() ? readdirSync(path).reduce((sum, entry) => sum + size(join(path, entry)), 0) : s.size;
  };
  const drop = (path) => {
    saved += size(path);
    rmSync(path, { recursive: true, force: true });
  };
  // node-gyp-build's layout (serialport's binding, bufferutil, utf-8-validate): prebuilds/<platform>-<arch>/.
  for (const prebuilds of dirsNamed(modules, 'prebuilds')) {
    for (const platform of readdirSync(prebuilds)) {
      if (!platform.startsWith('linux-')) drop(join(prebuilds, platform));
    }
  }
  // uWebSockets.js loads binaries/uws_<platform>_<arch>_<abi>.node (src/uws.js); the copies in dist/ are never read.
  const uws = join(modules, 'uWebSockets.js');
  const keep = new Set(LINUX_ARCHES.map((arch) => `uws_linux_${arch}_${NODE_ABI}.node`));
  for (const file of readdirSync(join(uws, 'binaries'))) if (!keep.has(file)) drop(join(uws, 'binaries', file));
  for (const file of readdirSync(join(uws, 'dist'))) if (file.endsWith('.node')) drop(join(uws, 'dist', file));
  return saved;
}

function diskUse(dir) {
  const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  return Number(du.stdout.split('\t')[0]) * 1024;
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const staging = option('--stage');
const out = option('--out') ?? join(root, 'dist');
let built;
try {
  built = realpathSync(join(root, 'dist', 'hearth'));
} catch {
  fail('no build in dist/hearth: run `npm run build` first (`make release` does)');
}
if (!existsSync(join(built, 'cli.js'))) fail(`${built} has no cli.js: run \`npm run build\` again`);

let work;
let target;
let failure;
if (staging !== undefined) {
  if (existsSync(staging) && readdirSync(staging).length > 0) fail(`${staging} is not empty`);
  target = staging;
} else {
  mkdirSync(out, { recursive: true });
  work = mkdtempSync(join(out, '.release-'));
  target = join(work, name);
}
try {
  mkdirSync(target, { recursive: true });
  for (const file of FILES) cpSync(join(root, file), join(target, file), { recursive: true });
  // The build as it is now (dist/hearth leads into it): a build finishing meanwhile does not mix in.
  cpSync(built, join(target, 'dist', 'hearth'), { recursive: true });
  const commit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const release = {
    name: 'hearth',
    version: pkg.version,
    commit: commit.status === 0 ? commit.stdout.trim() : undefined,
    node: pkg.engines.node,
    platforms: LINUX_ARCHES.map((arch) => `linux-${arch}`),
  };
  writeFileSync(join(target, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);

  // The npm beside this node, not the first on PATH: under `npx` that is node_modules/.bin/npm, an older one some
  // package depends on. Settings a parent npm passes down (npm_config_*) are not this install's.
  const besideNode = join(dirname(process.execPath), 'npm');
  const npm = process.env.NPM ?? (existsSync(besideNode) ? besideNode : 'npm');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
  const args = ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  const installed = spawnSync(npm, args, { cwd: target, env, stdio: 'inherit' });
  if (installed.status !== 0) throw new Error(`${npm} ${args.join(' ')} failed`);
  const modules = join(target, 'node_modules');
  const saved = dropForeignBinaries(modules);

  const missing = REQUIRED_BINARIES.filter((file) => !existsSync(join(target, file)));
  if (missing.length > 0) throw new Error(`binaries a Pi needs are missing: ${missing.join(', ')}`);
  // The lock marks the packages only development needs; none of them may be in the tarball.
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const dev = Object.entries(lock.packages)
    .filter(([path, entry]) => entry.dev === true && existsSync(join(target, path)))
    .map(([path]) => path);
  if (dev.length > 0) throw new Error(`dev packages in the release: ${dev.join(', ')}`);

  const size = diskUse(target);
  if (work === undefined) {
    console.log(
      `release: ${target}: ${mb(size)} on disk (node_modules ${mb(diskUse(modules))}; ${mb(saved)} of other platforms' binaries left out)`,
    );
  } else {
    const tarball = join(out, `${name}.tar.gz`);
    // Written aside and renamed: a tarball under its final name is whole.
    const tar = spawnSync('tar', ['-C', work, '--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-czf', `${tarball}.tmp`, name], {
      stdio: 'inherit',
    });
    if (tar.status !== 0) throw new Error('tar failed');
    renameSync(`${tarball}.tmp`, tarball);
    console.log(
      `release: ${relative(process.cwd(), tarball) || tarball}: ${mb(statSync(tarball).size)}; unpacked ${mb(size)} ` +
        `(node_modules ${mb(diskUse(modules))}; ${mb(saved)} of other platforms' binaries left out)`,
    );
  }
} catch (err) {
  failure = err;
}
// Nothing half made stays: the staging folder goes either way when making a tarball, and on failure when staging.
if (work !== undefined) rmSync(work, { recursive: true, force: true });
if (failure !== undefined) {
  if (work === undefined) rmSync(target, { recursive: true, force: true });
  else rmSync(join(out, `${name}.tar.gz.tmp`), { force: true });
  fail(failure.message);
}
