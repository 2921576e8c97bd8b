import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../drivers/virtual/index.js';
import { parseConfigText } from '../../src/config/load.js';
import { Hub, SECTION_VALIDATORS } from '../../src/hub.js';
import { recordingLogger } from '../api/ws/client.js';
import { MINIMAL_CONFIG, type Teardown } from '../helpers/hub.js';

export type RecordingLogger = ReturnType<typeof recordingLogger>;

export interface WebHub {
  readonly hub: Hub;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly wsUrl: string;
  readonly dataDir: string;
  readonly log: RecordingLogger;
}

export interface WebHubOptions {
  /** The configuration (MINIMAL_CONFIG by default); `http:` settings go here. */
  readonly yaml?: string;
  /** An existing data directory (kept at teardown). */
  readonly dataDir?: string;
}

/** Starts a hub with no users at all (the state of a fresh install), stopped and removed at teardown. */
export async function startWebHub(t: Teardown, options: WebHubOptions = {}): Promise<WebHub> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'hearth-web-')));
  const log = recordingLogger();
  const hub = await Hub.start({
    config: parseConfigText(options.yaml ?? MINIMAL_CONFIG, null, SECTION_VALIDATORS),
    dataDir,
    log,
    host: '127.0.0.1',
    port: 0,
    random: seededRandom(7),
  });
  t.teardown(async () => {
    await hub.stop();
    if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
  });
  return { hub, url: `http://127.0.0.1:${hub.port}`, wsUrl: `ws://127.0.0.1:${hub.port}/api/websocket`, dataDir, log };
}

/** A response as a test reads it. */
export interface Page {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The Location of a redirect. */
  readonly location: string | null;
  /** The first hidden `csrf` field of the page. */
  readonly csrf: string;
}

/**
 * A browser without JavaScript: keeps cookies, never follows redirects by itself, and posts forms as
 * application/x-www-form-urlencoded, as a plain HTML form does.
 */
export class FormBrowser {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie header received, as sent. */
  readonly setCookies: string[] = [];

  constructor(readonly base: string) {}

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, { method: 'GET', headers });
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** GETs a page with a form and posts it with the page's CSRF token. */
  async submit(formPath: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.get(formPath);
    return this.post(action, { csrf: page.csrf, ...fields });
  }

  async request(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has('cookie')) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(this.base + path, { method: init.method, headers, body: init.body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attrs.some((a) => a.trim().toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      location: res.headers.get('location'),
      csrf: /name="csrf" value="([^"]*)"/.exec(text)?.[1] ?? '',
    };
  }
}

/** Creates the owner through the onboarding form and returns a browser logged in as them. */
export async function onboard(
  hub: WebHub,
  user = { name: 'Ada Lovelace', username: 'ada', password: 'analytical engine' },
): Promise<FormBrowser> {
  const browser = new FormBrowser(hub.url);
  const done = await browser.submit('/onboarding', '/onboarding', {
    name: user.name,
    username: user.username,
    password: user.password,
    password_confirm: user.password,
  });
  if (done.status !== 302 || done.location !== '/') throw new Error(`onboarding failed: ${done.status} ${done.text.slice(0, 500)}`);
  return browser;
}

/** A WebSocket-less REST call with a bearer token. */
export function rest(hub: WebHub, path: string, token: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(hub.url + path, { ...init, headers });
}
