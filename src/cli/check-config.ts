import { formatIssue } from '../config/format.js';
import { readConfigOrReport } from './config-problems.js';
import { CHECK_CONFIG_USAGE, EXIT_FAILURE, EXIT_OK, parseCommandArgs, requireString } from './usage.js';

/** `hearth check-config --config FILE`: every problem on stdout, exit 1; or "Configuration valid: FILE", exit 0. */
export async function checkConfigCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { config: { type: 'string' } }, CHECK_CONFIG_USAGE);
  if (values.help) {
    process.stdout.write(CHECK_CONFIG_USAGE);
    return EXIT_OK;
  }
  const file = requireString(values, 'config', CHECK_CONFIG_USAGE);
  // hub.ts holds the validators of every section (drivers, automations), so they are checked too.
  const { SECTION_VALIDATORS } = await import('../sections.js');
  const result = await readConfigOrReport(file, SECTION_VALIDATORS, process.stdout);
  if (result === undefined) return EXIT_FAILURE;
  // Accepted and not honoured (a Home Assistant integration hearth does not have): said, never a failure.
  for (const w of result.warnings ?? []) process.stdout.write(`warning: ${formatIssue(w)}\n`);
  process.stdout.write(`Configuration valid: ${file}\n`);
  return EXIT_OK;
}
