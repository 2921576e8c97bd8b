// The simulated kernel's reports (sim.ts) as the tests wait on them: a line's state that the next one replaces within
// the same chunk of the socket is still seen, as when a relay is held on and released as its process dies
// (failsafe.test.ts).
import { connect } from 'node:net';
import t from 'tap';
import { PI5_OLD_KERNEL, SimChips } from './sim.js';

t.test('a waiter sees each state, also of two in one chunk', async (t) => {
  const sim = await SimChips.start(t, PI5_OLD_KERNEL);
  const held = sim.waitLine('gpiochip4', 17, (l) => l.requested && l.value === 1, 'held on');
  const socket = connect(sim.env.HEARTH_GPIO_SIM_SOCKET as string);
  t.teardown(() => socket.destroy());
  await new Promise((resolve) => socket.on('connect', resolve));
  const line = (requested: boolean, value: 0 | 1): string =>
    JSON.stringify({
      line: { chip: 'gpiochip4', offset: 17, requested, consumer: '', direction: 'out', bias: 'as-is', edges: false, value },
    });
  socket.write(`${line(true, 1)}\n${line(false, 0)}\n`);
  t.match(await held, { requested: true, value: 1 }, 'the state held on');
  t.match(await sim.waitLine('gpiochip4', 17, (l) => !l.requested, 'released'), { value: 0 }, 'then the release');
});
