import * as zhc from 'zigbee-herdsman-converters';
import { StubDevice } from './test/drivers/zigbee-devices-helpers.js';
for (const arg of process.argv.slice(2)) {
  const [modelID, manufacturerName, eps] = arg.split('|');
  const dev = new StubDevice({ ieee: '0x0000000000000001', modelID, manufacturerName: manufacturerName ?? '', endpoints: eps ? eps.split(',').map(Number) : [1] });
  const d = await zhc.findByDevice(dev.zh);
  if (!d) { console.log(arg, 'NOT FOUND'); continue; }
  const ex = typeof d.exposes === 'function' ? d.exposes(dev.zh, {}) : d.exposes;
  console.log('==', arg, '=>', d.model, d.vendor, d.description, 'ota:', !!d.ota);
  const show = (e: any, ind: string) => console.log(ind, e.type, e.name, 'prop', e.property ?? '', 'acc', e.access, 'ep', e.endpoint ?? '', e.category ?? '', e.homeassistant ? JSON.stringify(e.homeassistant) : '', e.values ? JSON.stringify(e.values) : '', e.unit ?? '', e.value_min ?? '', e.value_max ?? '', e.value_step ?? '', e.value_on ?? '', e.value_off ?? '');
  for (const e of ex as any[]) { show(e, ' '); if (['light','switch','lock','cover','climate','fan'].includes(e.type)) for (const f of e.features) show(f, '     '); }
}
