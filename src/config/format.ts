import { ConfigError, type ConfigIssue, type ConfigPath, formatPath } from './reader.js';

/** A configuration problem with the place in the file it comes from. */
export interface LocatedIssue extends ConfigIssue {
  /** The file as the user named it (or the bundled demo's path). */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** A problem of a leniently read configuration (readConfigText), with the section it keeps from starting. */
export interface SectionProblem extends LocatedIssue {
  /** The top-level section it is in (`automation` for `automation manual:`); null for the document itself and `hub:`. */
  readonly section: string | null;
  /**
   * Its path in the section as its validator read it, merged from labelled keys (`automation[5]` where the file
   * says `automation ui[2]`); absent when the problem is about a value the merged section does not hold.
   */
  readonly sectionPath?: ConfigPath;
}

/** `<file>:<line>:<column>: <path>: <message>`, the form editors and terminals turn into links. */
export function formatIssue(issue: LocatedIssue): string {
  const where = issue.path.length === 0 ? '' : `${formatPath(issue.path)}: `;
  return `${issue.file}:${issue.line}:${issue.column}: ${where}${issue.message}`;
}

/** A ConfigError whose every problem carries file, line and column; its message lists them, one a line. */
export class ConfigFileError extends ConfigError {
  declare readonly issues: readonly LocatedIssue[];

  constructor(issues: readonly LocatedIssue[]) {
    super(issues);
    this.name = 'ConfigError';
    this.message = issues.map(formatIssue).join('\n');
  }
}

export function isLocatedIssue(issue: ConfigIssue): issue is LocatedIssue {
  const i = issue as Partial<LocatedIssue>;
  return typeof i.file === 'string' && typeof i.line === 'number' && typeof i.column === 'number';
}

/** Problems in file order: `mainFile` first, then other files as they first appear (stable at the same place). */
export function sortIssues<T extends LocatedIssue>(issues: readonly T[], mainFile?: string): T[] {
  const files = [...new Set([...(mainFile === undefined ? [] : [mainFile]), ...issues.map((i) => i.file)])];
  return [...issues].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line || a.column - b.column);
}
