// Home Assistant's client-id and redirect-URI rules as a table: home-assistant/core
// tests/components/auth/test_indieauth.py (commit 04514f0cc4296460f20fa04d89522f17f262af8e).
import t from 'tap';
import { isLocalAddress, verifyClientId, verifyRedirectUri } from '../../src/auth/indieauth.js';

const CLIENT_IDS: readonly [string, boolean, string][] = [
  ['http://ex.com/', true, 'test_client_id_scheme'],
  ['https://ex.com/', true, 'test_client_id_scheme'],
  ['ftp://ex.com', false, 'test_client_id_scheme'],
  ['http://ex.com', true, 'test_client_id_path'],
  ['http://ex.com/hello', true, 'test_client_id_path'],
  ['http://ex.com/hello/.world', true, 'test_client_id_path'],
  ['http://ex.com/hello./.world', true, 'test_client_id_path'],
  ['http://ex.com/.', false, 'test_client_id_path'],
  ['http://ex.com/hello/./yo', false, 'test_client_id_path'],
  ['http://ex.com/hello/../yo', false, 'test_client_id_path'],
  ['http://ex.com/#yoo', false, 'test_client_id_fragment'],
  ['http://user@ex.com/', false, 'test_client_id_user_pass'],
  ['http://user:pass@ex.com/', false, 'test_client_id_user_pass'],
  ['http://www.home-assistant.io/', true, 'test_client_id_hostname'],
  ['http://[::1]', true, 'test_client_id_hostname'],
  ['http://127.0.0.1', true, 'test_client_id_hostname'],
  ['http://10.0.0.0', true, 'test_client_id_hostname'],
  ['http://10.255.255.255', true, 'test_client_id_hostname'],
  ['http://172.16.0.0', true, 'test_client_id_hostname'],
  ['http://172.31.255.255', true, 'test_client_id_hostname'],
  ['http://192.168.0.0', true, 'test_client_id_hostname'],
  ['http://192.168.255.255', true, 'test_client_id_hostname'],
  ['http://11.0.0.0/', false, 'test_client_id_hostname'],
  ['http://172.32.0.0/', false, 'test_client_id_hostname'],
  ['http://192.167.0.0/', false, 'test_client_id_hostname'],
  ['not a url', false, 'hearth: not a URL'],
  ['', false, 'hearth: empty'],
];

const REDIRECTS: readonly [string, string, boolean, string][] = [
  ['http://ex.com', 'http://ex.com/callback', true, 'test_verify_redirect_uri'],
  ['http://ex.com', 'http://different.com/callback', false, 'test_verify_redirect_uri: different domain'],
  ['http://ex.com', 'https://ex.com/callback', false, 'test_verify_redirect_uri: different scheme'],
  ['https://sub1.ex.com', 'https://sub2.ex.com/callback', false, 'test_verify_redirect_uri: different subdomain'],
  ['https://home-assistant.io/android', 'homeassistant://auth-callback', true, 'test_verify_redirect_uri_android_ios'],
  ['https://home-assistant.io/android', 'homeassistant://something-else', false, 'test_verify_redirect_uri_android_ios'],
  ['https://incorrect.com', 'homeassistant://auth-callback', false, 'test_verify_redirect_uri_android_ios'],
  [
    'https://home-assistant.io/android',
    'https://wear.googleapis.com/3p_auth/io.homeassistant.companion.android',
    true,
    'test_verify_redirect_uri_android_ios',
  ],
  [
    'https://home-assistant.io/android',
    'https://wear.googleapis-cn.com/3p_auth/io.homeassistant.companion.android',
    true,
    'test_verify_redirect_uri_android_ios',
  ],
  ['https://home-assistant.io/iOS', 'homeassistant://auth-callback', true, 'test_verify_redirect_uri_android_ios'],
  ['https://home-assistant.io/iOS', 'homeassistant://something-else', false, 'test_verify_redirect_uri_android_ios'],
  [
    'https://home-assistant.io/iOS',
    'https://wear.googleapis.com/3p_auth/io.homeassistant.companion.android',
    false,
    'test_verify_redirect_uri_android_ios',
  ],
];

t.test('client ids', async (t) => {
  for (const [clientId, valid, source] of CLIENT_IDS) t.equal(verifyClientId(clientId), valid, `${clientId} (${source})`);
});

t.test('redirect URIs', async (t) => {
  for (const [clientId, redirect, valid, source] of REDIRECTS)
    t.equal(verifyRedirectUri(clientId, redirect), valid, `${clientId} → ${redirect} (${source})`);
});

t.test('local addresses', async (t) => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.0.1', '::1', 'fd00::1', 'fe80::1', '::ffff:192.168.0.1'])
    t.ok(isLocalAddress(a), a);
  for (const a of ['8.8.8.8', '172.32.0.1', '2001:db8::1', 'example.com']) t.notOk(isLocalAddress(a), a);
});
