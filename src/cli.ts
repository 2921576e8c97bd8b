#!/usr/bin/env node
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, MAIN_USAGE, UsageError } from './cli/usage.js';
import { HUB_VERSION } from './version.js';

/**
 * The `hearth` command. Each subcommand's module is imported only when it runs, so `token` and `--help`
 * start without loading the server, and exit codes are: 0 done, 1 failed, 2 wrong usage.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return (await import('./cli/serve.js')).serveCommand(rest);
    case 'check-config':
      return (await import('./cli/check-config.js')).checkConfigCommand(rest);
    case 'token':
      return (await import('./cli/token.js')).tokenCommand(rest);
    case 'user':
      return (await import('./cli/user.js')).userCommand(rest);
    case 'unban':
      return (await import('./cli/unban.js')).unbanCommand(rest);
    case 'zigbee':
      return (await import('./cli/zigbee.js')).zigbeeCommand(rest);
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(MAIN_USAGE);
      return EXIT_OK;
    case '-v':
    case '--version':
      process.stdout.write(`${HUB_VERSION}\n`);
      return EXIT_OK;
    case undefined:
      throw new UsageError('missing a command', MAIN_USAGE);
    default:
      throw new UsageError(
        command.startsWith('-') ? `unknown option ${JSON.stringify(command)}` : `unknown command ${JSON.stringify(command)}`,
        MAIN_USAGE,
      );
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`hearth: ${err.message}\n\n${err.usage}`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    // A failure nobody anticipated: say what it was; the stack only on request, for a bug report.
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`hearth: ${message}\n`);
    if (process.env.HEARTH_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
