import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type { Teardown } from '../helpers/hub.js';

/** Debian's chromium; CI installs it (apt-get install chromium). */
export const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface BrowserPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions of the page (a CSP violation shows up here). */
  readonly problems: string[];
}

/**
 * How long closing chromium may take before its processes are killed. A close that hangs (chromium never answering
 * the close: microsoft/playwright#5273, duckduckgo/tracker-radar-collector#88) would hold the test file until tap's
 * timeout fails it after all its tests have passed.
 */
const CLOSE_DEADLINE_MS = 15_000;

/** Kills the processes of the chromium that runs with `profile` (its command line names it). */
async function killChromium(profile: string): Promise<void> {
  const flag = `--user-data-dir=${profile}`;
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(flag)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
}

/** Closes the context within CLOSE_DEADLINE_MS, or kills its chromium. */
async function closeChromium(context: BrowserContext, profile: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CLOSE_DEADLINE_MS);
  });
  const closed = await Promise.race([context.close().then(() => true), deadline]);
  clearTimeout(timer);
  if (!closed) await killChromium(profile);
}

/** A fresh chromium profile (its own --user-data-dir), closed and removed at teardown. */
export async function openBrowser(t: Teardown, viewport = { width: 1280, height: 900 }): Promise<BrowserPage> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no chromium at ${CHROMIUM}: install Debian's (apt-get install chromium) or set HEARTH_CHROMIUM`);
  const profile = await mkdtemp(join(tmpdir(), 'hearth-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, viewport, timeout: 30_000 });
  t.teardown(async () => {
    await closeChromium(context, profile);
    await rm(profile, { recursive: true, force: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[13]/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
}

/** Onboarding in the browser: creates the owner (these credentials) and lands on the dashboard. */
export async function createOwnerInBrowser(
  web: { readonly url: string },
  page: Page,
  owner: { readonly name: string; readonly username: string; readonly password: string },
): Promise<void> {
  await page.goto(`${web.url}/`);
  await page.waitForURL(`${web.url}/onboarding`);
  await page.getByLabel('Your name').fill(owner.name);
  await page.getByLabel('Username').fill(owner.username);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByLabel('Password again').fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${web.url}/`);
}
