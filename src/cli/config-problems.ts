import {
  ConfigFileError,
  DEMO_CONFIG_PATH,
  formatIssue,
  loadConfig,
  type ParsedBefore,
  readConfigFile,
  type SectionValidators,
} from '../config/load.js';
import { ConfigError } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';

interface Out {
  write(text: string): unknown;
}

/**
 * Loads a configuration (the bundled demo for null), or prints why it cannot be used and returns
 * undefined: each problem to `out` as FILE:LINE:COLUMN: PATH: MESSAGE (an unreadable file to stderr),
 * never a stack trace. Any problem stops it; with `required` (serve), only those of the document, `hub:` and
 * the required sections do, and the others come back in the configuration's `problems` for the hub to report.
 * `parsedBefore`: what earlier starts parsed (serve's, config-cache.ts).
 */
export async function readConfigOrReport(
  file: string | null,
  validators: SectionValidators,
  out: Out,
  required?: readonly string[],
  parsedBefore?: ParsedBefore,
): Promise<HubConfig | undefined> {
  try {
    return required === undefined ? await loadConfig(file, validators) : await readConfigFile(file, validators, required, parsedBefore);
  } catch (err) {
    if (err instanceof ConfigFileError) {
      const n = err.issues.length;
      out.write(`${err.issues.map(formatIssue).join('\n')}\n`);
      out.write(`${n} problem${n === 1 ? '' : 's'} in ${file ?? DEMO_CONFIG_PATH}\n`);
      return undefined;
    }
    if (err instanceof ConfigError) {
      out.write(`${err.message}\n`);
      return undefined;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string') {
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code;
      process.stderr.write(`hearth: cannot read the configuration ${file ?? DEMO_CONFIG_PATH}: ${why}\n`);
      return undefined;
    }
    throw err;
  }
}
