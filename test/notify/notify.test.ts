import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';

const YAML = `${MINIMAL_CONFIG}
notify:
  - platform: file
    name: log
    filename: notify/log.txt
  - platform: file
    name: stamped
    filename: stamped.txt
    timestamp: true
  - platform: pushbullet
    api_key: secret
`;

t.test("notify: file platforms under the data dir with HA's header, notify.notify, notify.persistent_notification", async (t) => {
  const { hub, dataDir } = await startTestHub(t, { yaml: YAML });
  const core = hub.core;
  await core.services.call('notify', 'log', { message: 'Kitchen is {{ states("light.kitchen") }}', title: 'House' });
  await core.services.call('notify', 'log', { message: 'second' });
  const log = await readFile(join(dataDir, 'notify/log.txt'), 'utf8');
  const lines = log.split('\n');
  t.match(
    lines[0],
    /^House notifications \(Log started: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00\)$/,
    'the header line with the first title',
  );
  t.equal(lines[1], '-'.repeat(80));
  t.equal(lines[2], 'Kitchen is off', 'the message rendered as a template');
  t.equal(lines[3], 'second');

  await core.services.call('notify', 'notify', { message: 'to all' });
  const stamped = await readFile(join(dataDir, 'stamped.txt'), 'utf8');
  t.match(stamped.split('\n')[0], /^Home Assistant notifications \(Log started: /, 'the default title');
  t.match(stamped.split('\n')[2], /^\d{4}-\d\d-\d\dT[\d:.]+\+00:00 to all$/, 'timestamp: true puts the time before the message');
  t.match(await readFile(join(dataDir, 'notify/log.txt'), 'utf8'), /\nto all\n$/);

  await core.services.call('notify', 'persistent_notification', {
    message: 'Hello {{ 1 + 1 }}',
    title: 'T',
    data: { notification_id: 'hi' },
  });
  t.match(core.notifications.get('hi'), { message: 'Hello 2', title: 'T' });
  t.equal(core.services.has('notify', 'pushbullet'), false, 'a platform hearth lacks is ignored');
});

t.test('notify: a file outside the data dir is refused, naming the key', async (t) => {
  for (const filename of ['../escape.txt', '/etc/passwd', 'a/../../b']) {
    t.throws(
      () => parseConfigText(`hub: {name: T}\nnotify:\n  - platform: file\n    filename: ${filename}\n`, null, SECTION_VALIDATORS),
      { message: /notify\[0\]\.filename.*relative to the data directory/ },
      filename,
    );
  }
});
