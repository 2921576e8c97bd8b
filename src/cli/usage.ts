import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A mistake in the command line: the caller prints it with the command's usage and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage text to print after the message. */
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** Where `serve` keeps its data without --data. */
export const DEFAULT_DATA_DIR = './data';

export const MAIN_USAGE = `Usage: hearth <command> [options]

Commands:
  serve          Run the hub (REST and WebSocket API)
  check-config   Check a configuration file and list every problem
  token          Create, list and revoke long-lived access tokens
  user           Set a user's web password (user password USERNAME)
  unban          Lift an IP ban (unban ADDRESS, or --list)
  zigbee         Import a zigbee2mqtt network (zigbee import Z2M_DATA_DIR)

Options:
  -h, --help     Show this help
  -v, --version  Show the version

Run "hearth <command> --help" for the options of a command.
`;

export const SERVE_USAGE = `Usage: hearth serve [--config FILE] [--data DIR] [--host HOST] [--port PORT] [--log-level LEVEL]

Runs the hub. Logs are JSON lines on stdout.

Options:
  --config FILE      Configuration file (default: the bundled demo configuration)
  --data DIR         Data directory for tokens and stored state (default: ./data)
  --host HOST        Address to listen on (default: hub.host from the configuration)
  --port PORT        Port to listen on, 0 for any free port (default: hub.port from the configuration)
  --log-level LEVEL  One of trace, debug, info, warn, error, fatal (default: info)
  -h, --help         Show this help
`;

export const CHECK_CONFIG_USAGE = `Usage: hearth check-config --config FILE

Checks a configuration file, including its driver and automation sections, and prints every problem
as FILE:LINE:COLUMN: PATH: MESSAGE. Exits 0 when the configuration is valid, 1 when it has problems.

Options:
  --config FILE  Configuration file to check (required)
  -h, --help     Show this help
`;

export const TOKEN_USAGE = `Usage: hearth token <create|list|revoke> [options]

  hearth token create --data DIR --name NAME   Create a token; prints the token alone on stdout
  hearth token list --data DIR                 List the tokens: name, created, last used
  hearth token revoke --data DIR NAME          Revoke the token called NAME

Creating the first token also creates the owner user. The data directory defaults to ./data.

Options:
  -h, --help  Show this help
`;

export const TOKEN_CREATE_USAGE = `Usage: hearth token create --data DIR --name NAME

Creates a long-lived access token for the owner (created if there is none yet) and prints it alone
on stdout. The token is shown only this once; only its hash is stored.

Options:
  --data DIR   Data directory (default: ./data)
  --name NAME  A name for the token, unique per user (required)
  -h, --help   Show this help
`;

export const TOKEN_LIST_USAGE = `Usage: hearth token list --data DIR

Lists the access tokens: name, created, last used.

Options:
  --data DIR  Data directory (default: ./data)
  -h, --help  Show this help
`;

export const TOKEN_REVOKE_USAGE = `Usage: hearth token revoke --data DIR NAME

Revokes the token called NAME.

Options:
  --data DIR  Data directory (default: ./data)
  -h, --help  Show this help
`;

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** node:util parseArgs in strict mode, with its errors turned into UsageErrors carrying `usage`. */
export function parseCommandArgs(args: readonly string[], options: Options, usage: string, positionals = false): ParsedArgs {
  try {
    const parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: positionals,
      strict: true,
    });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (err) {
    if (isParseArgsError(err)) throw new UsageError(err.message, usage);
    throw err;
  }
}

function isParseArgsError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** The value of a string option, or a UsageError when it is required and missing. */
export function requireString(values: ParsedArgs['values'], name: string, usage: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`, usage);
  return v;
}

export function optionalString(values: ParsedArgs['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** Makes text from files or clients safe to print on a terminal (no control characters). */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}
