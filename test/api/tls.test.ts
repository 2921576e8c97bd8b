import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import WebSocket from 'ws';
import { ConfigFileError, formatIssue, parseConfigText } from '../../src/config/load.js';
import { silentLogger } from '../../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../../src/hub.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';

/** A self-signed certificate for localhost and 127.0.0.1 (see test/fixtures/tls/README.md). */
const CERT = fileURLToPath(new URL('../fixtures/tls/cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../fixtures/tls/key.pem', import.meta.url));
const CA = readFileSync(CERT);

function tlsConfig(certificate: string, key: string): string {
  return `${MINIMAL_CONFIG}http:\n  ssl_certificate: ${JSON.stringify(certificate)}\n  ssl_key: ${JSON.stringify(key)}\n`;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** GET over HTTPS, verifying the hub's certificate against the fixture (no verification turned off). */
function httpsGet(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, ca: CA, headers, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to GET ${path} within 5 s`)));
    req.on('error', reject);
    req.end();
  });
}

function problems(text: string): string[] {
  try {
    parseConfigText(text, null, SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map(formatIssue);
    throw err;
  }
  return [];
}

t.test('with ssl_certificate and ssl_key the hub serves REST, the WebSocket API and the pages over TLS', async (t) => {
  const h = await startTestHub(t, { yaml: tlsConfig(CERT, KEY) });
  const port = h.hub.port;

  const api = await httpsGet(port, '/api/', { authorization: `Bearer ${h.token}` });
  t.equal(api.status, 200);
  t.same(JSON.parse(api.body), { message: 'API running.' });
  t.equal((await httpsGet(port, '/api/', { authorization: 'Bearer wrong' })).status, 401);
  const state = await httpsGet(port, '/api/states/light.kitchen', { authorization: `Bearer ${h.token}` });
  t.equal(JSON.parse(state.body).entity_id, 'light.kitchen');

  const ws = new WebSocket(`wss://127.0.0.1:${port}/api/websocket`, { ca: CA });
  t.teardown(() => ws.close());
  const messages: { type?: string }[] = [];
  const authOk = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no auth_ok over wss within 5 s: ${JSON.stringify(messages)}`)), 5000);
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { type?: string };
      messages.push(m);
      if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: h.token }));
      if (m.type === 'auth_ok') {
        clearTimeout(timer);
        resolve();
      }
    });
    ws.on('error', reject);
  });
  await authOk;
  t.same(
    messages.map((m) => m.type),
    ['auth_required', 'auth_ok'],
  );

  // Over TLS every cookie the pages set is Secure (the owner has no password yet: onboarding's form sets one).
  const form = await httpsGet(port, '/onboarding');
  t.equal(form.status, 200, `GET /onboarding: ${form.status} ${String(form.headers.location)}`);
  const cookies = form.headers['set-cookie'] ?? [];
  t.ok(cookies.length > 0, 'the form sets its CSRF cookie');
  for (const c of cookies) t.match(c, /; HttpOnly; SameSite=Strict.*; Secure$/, `Secure: ${c}`);
});

t.test('check-config names the TLS options that cannot work', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-tls-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const missing = join(dir, 'missing.pem');

  t.match(problems(tlsConfig(missing, KEY)), [
    new RegExp(`^<config>:\\d+:\\d+: http\\.ssl_certificate: "${missing}" does not exist: expected the path of a PEM file`),
  ]);
  t.match(problems(tlsConfig(dir, KEY)), [/http\.ssl_certificate: ".*" is not a file: expected the path of a PEM file/]);
  t.match(problems(`${MINIMAL_CONFIG}http:\n  ssl_certificate: ${JSON.stringify(CERT)}\n`), [
    /http\.ssl_key: is required with the other one: ssl_certificate and ssl_key \(PEM files\) go together to serve HTTPS/,
  ]);
  t.same(problems(tlsConfig(CERT, KEY)), [], 'a readable pair is fine');
});

t.test('files that are not a certificate and key: the hub does not start, says which files, and leaves nothing running', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-tls-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // Swapped: both exist and are readable, so only loading them shows the problem.
  const config = parseConfigText(tlsConfig(KEY, CERT), null, SECTION_VALIDATORS);
  await t.rejects(
    Hub.start({ config, dataDir, log: silentLogger, host: '127.0.0.1', port: 0 }),
    /Cannot serve HTTPS with ssl_certificate ".*key\.pem" and ssl_key ".*cert\.pem": expected a PEM certificate \(chain\) and its unencrypted PEM private key/,
  );
  // tap would time out here if the failed start had left its file watchers open.
});
