// Runs inside a network namespace of its own (see announce.test.ts): starts a hub with `default_config:`, asks the
// LAN (the namespace's loopback) for `_home-assistant._tcp.local` over mDNS, and prints what answered as JSON.
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/load.js';
import { silentLogger } from '../../src/core/log.js';
import { Hub } from '../../src/hub.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';

const require = createRequire(import.meta.url);
const { DNSPacket } = require('@homebridge/ciao/lib/coder/DNSPacket') as {
  DNSPacket: {
    createDNSQueryPacket(d: { questions: unknown[] }): { encode(): Buffer };
    decode(ctx: unknown, b: Buffer): { answers: Map<string, Record<string, unknown>>; additionals: Map<string, Record<string, unknown>> };
  };
};
const { Question } = require('@homebridge/ciao/lib/coder/Question') as { Question: new (name: string, type: number) => unknown };

const PTR = 12;
const deadline = Date.now() + 20_000;
const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zeroconf-'));
const hub = await Hub.start({
  config: parseConfigText(
    'hub:\n  name: Beach House\n  latitude: 1\n  longitude: 2\n  time_zone: UTC\ndefault_config:\n',
    null,
    SECTION_VALIDATORS,
  ),
  dataDir,
  log: silentLogger,
  host: '127.0.0.1',
  port: 0,
});
const socket = createSocket({ type: 'udp4', reuseAddr: true });
let done = false;
const found = await new Promise<Record<string, unknown>>((resolve, reject) => {
  socket.on('message', (msg, rinfo) => {
    try {
      const packet = DNSPacket.decode(rinfo, msg);
      const records = [...packet.answers.values(), ...packet.additionals.values()];
      const txt = records.find((r) => r.type === 16 && String(r.name).includes('_home-assistant._tcp'));
      const srv = records.find((r) => r.type === 33 && String(r.name).includes('_home-assistant._tcp'));
      if (txt === undefined || srv === undefined) return;
      const pairs = (txt.txt as Buffer[]).map((b) => b.toString('utf8').split('=') as [string, string]);
      done = true;
      resolve({ name: srv.name, port: srv.port, txt: Object.fromEntries(pairs) });
    } catch {
      // Not a DNS packet for us.
    }
  });
  socket.bind(5353, () => {
    socket.addMembership('224.0.0.251');
    const ask = () => {
      if (done) return;
      if (Date.now() > deadline) return reject(new Error('no answer'));
      socket.send(
        DNSPacket.createDNSQueryPacket({ questions: [new Question('_home-assistant._tcp.local.', PTR)] }).encode(),
        5353,
        '224.0.0.251',
      );
      setTimeout(ask, 500).unref();
    };
    ask();
  });
});
process.stdout.write(`${JSON.stringify({ ...found, hubPort: hub.port })}\n`);
socket.close();
await hub.stop();
await rm(dataDir, { recursive: true, force: true });
