// The hub announces itself as Home Assistant does, checked over real mDNS inside a network namespace of the test's
// own (loopback with multicast on), so nothing reaches a real network.
import { execFile } from 'node:child_process';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { HA_VERSION } from '../../src/version.js';
import { parseZeroconf, serviceName, txtRecord } from '../../src/zeroconf/index.js';
import { withoutCoverage } from '../helpers/child-env.js';
import { canUnshare, LOOPBACK_SETUP, unshareArgs } from '../helpers/netns.js';

t.test("_home-assistant._tcp with HA's TXT keys answers an mDNS query", async (t) => {
  if (!(await canUnshare())) {
    t.comment('skipped: a network namespace (unshare -n) needs root');
    return;
  }
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'unshare',
      unshareArgs('test/zeroconf/announce-child.ts', LOOPBACK_SETUP),
      { cwd: packageRoot(), env: withoutCoverage(process.env), timeout: 40_000 },
      (err, stdout, stderr) => (err === null ? resolve(stdout) : reject(new Error(`${err.message}\n${stderr}`))),
    ),
  );
  const found = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
    name: string;
    port: number;
    hubPort: number;
    txt: Record<string, string>;
  };
  t.match(found.name, /^Beach House\._home-assistant\._tcp\.local\.?$/);
  t.equal(found.port, found.hubPort, "the API's port");
  t.match(found.txt, {
    location_name: 'Beach House',
    version: HA_VERSION,
    requires_api_password: 'True',
    base_url: '',
    internal_url: '',
    external_url: '',
  });
  t.match(found.txt.uuid, /^[0-9a-f]{32}$/);
});

t.test('the section: on by default with the section, off with announce: false; names and TXT', async (t) => {
  t.same(parseZeroconf(null, ['zeroconf'], []), { announce: true });
  t.same(parseZeroconf({ announce: false }, ['zeroconf'], []), { announce: false, interfaces: undefined });
  const issues: { path: unknown; message: string }[] = [];
  parseZeroconf({ announce: 'yes', colour: 1 }, ['zeroconf'], issues as never);
  t.same(
    issues.map((i) => i.message),
    ['unknown key; allowed: announce, interfaces, default_interface, ipv6', 'expected true or false'],
  );
  t.equal(serviceName('Home.Sweet\u0000Home'), 'Home Sweet Home');
  t.equal(Buffer.byteLength(serviceName('ü'.repeat(100))), 62, 'a DNS label holds 63 bytes');
  t.match(txtRecord({ locationName: 'X', uuid: 'u', baseUrl: '' }), { requires_api_password: 'True', version: HA_VERSION });
});
