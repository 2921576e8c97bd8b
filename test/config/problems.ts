import { ConfigFileError, type LocatedIssue, loadConfig, type SectionValidators } from '../../src/config/load.js';

/** The problems loading a configuration file reports; throws when it loads without any. */
export async function fileProblems(file: string, validators: SectionValidators): Promise<readonly LocatedIssue[]> {
  try {
    await loadConfig(file, validators);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues;
    throw err;
  }
  throw new Error('expected configuration problems');
}
