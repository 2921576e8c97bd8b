import { loadZigbeeImport } from '../sections.js';
import { EXIT_FAILURE, EXIT_OK, optionalString, parseCommandArgs, UsageError } from './usage.js';

export const ZIGBEE_USAGE = `Usage: hearth zigbee import [--data DIR] [--force] Z2M_DATA_DIR

Moves a zigbee2mqtt network to hearth without pairing any device again: the network settings of
Z2M_DATA_DIR/configuration.yaml (serial port and adapter, pan_id, ext_pan_id, network_key, channel; where
they say GENERATE, the values in its coordinator_backup.json), its database.db and coordinator_backup.json,
and the friendly names of its devices: section. Stop zigbee2mqtt first (only one program can use the
stick), then add a zigbee: section to hearth's configuration.yaml.

Options:
  --data DIR  hearth's data directory (default: ./data)
  --force     Replace a hearth Zigbee network that already exists (it is kept as DIR/zigbee.replaced-<time>)
  -h, --help  Show this help
`;

export interface ZigbeeIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: ZigbeeIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** `hearth zigbee import ...`; returns the exit code. */
export async function zigbeeCommand(args: readonly string[], io: ZigbeeIo = processIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { data: { type: 'string' }, force: { type: 'boolean' } }, ZIGBEE_USAGE, true);
  if (values.help) {
    io.out(ZIGBEE_USAGE);
    return EXIT_OK;
  }
  const [sub, source, ...extra] = positionals;
  if (sub !== 'import')
    throw new UsageError(sub === undefined ? 'missing the subcommand (import)' : `unknown subcommand ${JSON.stringify(sub)}`, ZIGBEE_USAGE);
  if (source === undefined) throw new UsageError("missing zigbee2mqtt's data directory", ZIGBEE_USAGE);
  if (extra.length > 0) throw new UsageError('give one zigbee2mqtt data directory', ZIGBEE_USAGE);
  const dataDir = optionalString(values, 'data') ?? './data';
  const { importZigbee2mqtt, ImportRefused } = await loadZigbeeImport();
  try {
    const summary = await importZigbee2mqtt(source, dataDir, values.force === true);
    const n = summary.network;
    const stick =
      n.adapter !== undefined || n.port !== undefined
        ? `${n.adapter ?? 'auto-detected'} on ${n.port ?? 'the auto-detected port'}`
        : 'auto-detected';
    io.out(
      `Imported the zigbee2mqtt network from ${source} into ${dataDir}/zigbee: PAN id 0x${n.pan_id.toString(16)}, channel ${n.channel ?? 11}, ` +
        `${summary.devices} device${summary.devices === 1 ? '' : 's'} (${summary.named} named), stick ${stick}.\n`,
    );
    for (const note of summary.notes) io.out(`Note: ${note}\n`);
    io.out('Next: stop zigbee2mqtt, add "zigbee:" to configuration.yaml (the stick and network come from the import), start hearth.\n');
    return EXIT_OK;
  } catch (err) {
    if (!(err instanceof ImportRefused)) throw err;
    io.err(`hearth: ${err.message}\n`);
    return EXIT_FAILURE;
  }
}
