import t from 'tap';
import { HUB_VERSION } from '../../src/version.js';
import { runCli } from './cli-process.js';

t.test('--version prints the hub version', async (t) => {
  const r = await runCli(['--version']);
  t.equal(r.code, 0);
  t.equal(r.stdout, `${HUB_VERSION}\n`);
});

t.test('--help lists the commands on stdout', async (t) => {
  const r = await runCli(['--help']);
  t.equal(r.code, 0);
  t.match(r.stdout, /^Usage: hearth <command>/);
  for (const cmd of ['serve', 'check-config', 'token']) t.match(r.stdout, new RegExp(`\\n  ${cmd} `));
  t.equal(r.stderr, '');
});

t.test('each command has --help', async (t) => {
  const cases: [string[], RegExp][] = [
    [['serve', '--help'], /^Usage: hearth serve \[--config FILE\] \[--data DIR\] \[--host HOST\] \[--port PORT\] \[--log-level LEVEL\]/],
    [['check-config', '--help'], /^Usage: hearth check-config --config FILE/],
    [['token', '--help'], /^Usage: hearth token <create\|list\|revoke>/],
    [['token', 'create', '--help'], /^Usage: hearth token create --data DIR --name NAME/],
    [['token', 'list', '-h'], /^Usage: hearth token list --data DIR/],
    [['token', 'revoke', '--help'], /^Usage: hearth token revoke --data DIR NAME/],
  ];
  await Promise.all(
    cases.map(async ([args, usage]) => {
      const r = await runCli(args);
      t.equal(r.code, 0, args.join(' '));
      t.match(r.stdout, usage, args.join(' '));
    }),
  );
});

t.test('unknown commands and flags print the usage on stderr and exit 2', async (t) => {
  const cases: [string[], RegExp][] = [
    [[], /missing a command/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['--frobnicate'], /unknown option "--frobnicate"/],
    [['serve', '--frobnicate'], /--frobnicate/],
    [['serve', 'extra'], /extra/],
    [['serve', '--port', 'http'], /--port "http" is not allowed: expected an integer from 0 to 65535/],
    [['serve', '--port', '70000'], /--port "70000" is not allowed/],
    [['serve', '--log-level', 'loud'], /--log-level "loud" is not allowed: expected one of trace, debug, info, warn, error, fatal/],
    [['check-config', '--config'], /--config/],
  ];
  await Promise.all(
    cases.map(async ([args, message]) => {
      const r = await runCli(args);
      t.equal(r.code, 2, `exit 2 for ${args.join(' ')}`);
      t.match(r.stderr, message, args.join(' '));
      t.match(r.stderr, /Usage: hearth/, `usage for ${args.join(' ')}`);
      t.equal(r.stdout, '', `nothing on stdout for ${args.join(' ')}`);
    }),
  );
});
