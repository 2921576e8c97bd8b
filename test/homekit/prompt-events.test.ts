// A state change reaches paired HomeKit controllers (hap-controller over 127.0.0.1) at the end of the turn in which it
// happened, not on hap-nodejs's 250 ms event timer; changes of one turn come in one EVENT message, each change once to
// each controller; a write from one controller reaches the others as promptly.
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { HttpClient, idOf, ON, pairedClient } from './controller.js';

const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  time_zone: Europe/Amsterdam
virtual:
  - {platform: switch, id: hall, name: Hall}
  - {platform: switch, id: porch, name: Porch}
homekit:
  name: Test Bridge
  port: 0
  bind: [127.0.0.1]
`;

type Change = { aid: number; iid: number; value: unknown };

/** Resolves with the first EVENT message holding `id`, or with 'late' once hap-nodejs's 250 ms timer would have fired. */
function eventOrLate(messages: Change[][], id: string): Promise<Change[] | 'late'> {
  const seen = messages.length;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      resolve('late');
    }, 250);
    // Checked on every timer tick of the loop: a message that came in resolves before the 250 ms timer.
    const poll = setInterval(() => {
      const hit = messages.slice(seen).find((m) => m.some((c) => `${c.aid}.${c.iid}` === id));
      if (hit === undefined) return;
      clearTimeout(timer);
      clearInterval(poll);
      resolve(hit);
    }, 1);
  });
}

t.test('a change in the hub reaches every subscribed controller well before 250 ms, once, batched per turn', async (t) => {
  const hub = await startTestHub(t, { yaml: YAML });
  const { client: phone, pairing, port } = await pairedClient(hub);
  t.teardown(() => phone.close());
  // A second session of the same pairing: another device on the same Apple ID.
  const tablet = new HttpClient('hearth-test', '127.0.0.1', port, pairing);
  t.teardown(() => tablet.close());
  const { accessories } = await phone.getAccessories();
  const hall = idOf(accessories, 'switch.hall', ON);
  const porch = idOf(accessories, 'switch.porch', ON);
  const phoneMessages: Change[][] = [];
  const tabletMessages: Change[][] = [];
  phone.on('event', (e) => phoneMessages.push(e.characteristics));
  tablet.on('event', (e) => tabletMessages.push(e.characteristics));
  await phone.subscribeCharacteristics([hall, porch]);
  await tablet.subscribeCharacteristics([hall, porch]);

  const atPhone = eventOrLate(phoneMessages, hall);
  const atTablet = eventOrLate(tabletMessages, hall);
  // Two changes in one turn.
  hub.hub.core.states.set('switch.hall', 'on');
  hub.hub.core.states.set('switch.porch', 'on');
  const [phoneGot, tabletGot] = await Promise.all([atPhone, atTablet]);
  t.not(phoneGot, 'late', 'the phone has the event before 250 ms');
  t.not(tabletGot, 'late', 'the tablet has it too');
  const sorted = (m: Change[] | 'late') => (m === 'late' ? [] : m.map((c) => `${c.aid}.${c.iid}=${String(c.value)}`).sort());
  const expected = [`${hall}=1`, `${porch}=1`].sort(); // HAP sends booleans as 1 and 0
  t.same(sorted(phoneGot), expected, 'both changes of the turn in one message, each once');
  t.same(sorted(tabletGot), expected, 'the same message to the tablet');

  // A write from the phone: the tablet hears of it at once.
  const atTablet2 = eventOrLate(tabletMessages, hall);
  await phone.setCharacteristics({ [hall]: false });
  t.not(await atTablet2, 'late', 'the other controller has the change before 250 ms');
  t.equal(hub.hub.core.states.get('switch.hall')?.state, 'off');
});
