/**
 * bench/gpio-latency.ts's reference server process, the floor of the same run: bench/floor-ws-server.ts's bare server,
 * on the same timers, sends a ready-made state_changed frame to every client per edge (and one per load write).
 */
import { startFloorServer, stateChangedFrame } from './floor-ws-server.js';
import { drive } from './gpio-latency-drive.js';
import { type FromServer, PIR, runServer, type ToServer } from './gpio-latency-protocol.js';

async function floorServer(): Promise<void> {
  const server = await startFloorServer();
  const event = (entityId: string, state: string) =>
    stateChangedFrame(entityId, state, '{"device_class":"motion","friendly_name":"Bench PIR"}');
  const pir = [event(PIR, 'off'), event(PIR, 'on')];
  const load = event('sensor.load_0', '20.0');
  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      server.close();
      process.exit(0);
    }
    void drive(
      m,
      (level) => server.broadcast(pir[level] as string),
      () => server.broadcast(load),
    ).then((r) => process.send?.({ ...r, busMs: [] } satisfies FromServer));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'listening', port: server.port, token: '' } satisfies FromServer);
}

runServer(floorServer);
