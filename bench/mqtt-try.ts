import { latencyRows } from './mqtt-latency.js';
import { startBenchBroker } from './mqtt-broker.js';
const broker = await startBenchBroker();
try {
  console.log(JSON.stringify(await latencyRows(broker), null, 1));
} finally {
  await broker.close();
}
