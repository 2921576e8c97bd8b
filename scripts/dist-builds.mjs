// Where a build goes, and how it replaces the previous one without a moment in which dist/ is half written.
//
//   dist/.builds/<id>/src, drivers   tsc's output (the bundle's input; bench's unbundled reference)
//   dist/.builds/<id>/hearth/        the bundle, what `npx hearth`, `make run` and the unit run
//   dist/current -> .builds/<id>     the build in use (<id> is <builder's pid>-<random>)
//   dist/hearth -> current/hearth    (and dist/src, dist/drivers) fixed links, made once
//
// A build writes into a fresh .builds/<id> and, once whole, a new symlink is renamed over dist/current:
// rename(2) replaces it atomically, so every stat or open of dist/hearth/cli.js sees the old build or the new
// one, whole. Directories cannot be swapped so: rename(2) will not replace a non-empty directory, and moving
// the old one aside first leaves a moment with no dist/hearth at all (renameat2's RENAME_EXCHANGE would do it,
// but Node has no binding for it).
// Node runs a module from its real path (symlinks resolved), so a running hub loads its later chunks (a
// subcommand, nunjucks at the first template, mqtt.js) from its own build directory, never from a newer build
// whose chunks have other names. Hence the previous build is kept when a new one goes in; older ones go.

import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const BUILDS = '.builds';
/** The links in dist/ that lead into the current build. */
export const ENTRIES = ['hearth', 'src', 'drivers'];

/** A fresh, empty build directory, <pid>-<random>: the pid tells pruneBuilds whose build it is. */
export function newBuildDir(dist) {
  mkdirSync(join(dist, BUILDS), { recursive: true });
  return mkdtempSync(join(dist, BUILDS, `${process.pid}-`));
}

/** Points `link` at `target` with one rename(2): readers see the old target or the new, never nothing. */
export function replaceLink(link, target) {
  const temp = `${link}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  symlinkSync(target, temp);
  renameSync(temp, link);
}

function linkTarget(path) {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Makes the build in `buildDir` (inside dist/.builds) the current one. Returns the name of the build it
 * replaced, if any.
 */
export function publish(dist, buildDir) {
  const name = buildDir.slice(join(dist, BUILDS).length + 1);
  const current = join(dist, 'current');
  const previous = linkTarget(current)?.slice(BUILDS.length + 1);
  replaceLink(current, join(BUILDS, name));
  for (const entry of ENTRIES) {
    const link = join(dist, entry);
    const target = join('current', entry);
    if (linkTarget(link) === target) continue;
    // The layout before this one had real directories here: replaced once (the only build with a gap).
    if (lstatSync(link, { throwIfNoEntry: false })?.isDirectory()) rmSync(link, { recursive: true, force: true });
    replaceLink(link, target);
  }
  return previous;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Removes the builds in dist/.builds except those in `keep` and those another live process is still writing
 * (a build dies with its builder, so one whose pid is gone is leftover).
 */
export function pruneBuilds(dist, keep) {
  const builds = join(dist, BUILDS);
  for (const name of readdirSync(builds)) {
    if (keep.has(name)) continue;
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (pid !== process.pid && Number.isInteger(pid) && alive(pid)) continue;
    rmSync(join(builds, name), { recursive: true, force: true });
  }
}
