/** Exit codes of the `cctrail` binary. */
export const EXIT = {
  /** The work was done. */
  ok: 0,
  /** The work was done, but the input has error diagnostics and `--strict` was given. */
  diagnostics: 1,
  /** Bad usage or unreadable input: nothing (or not everything) could be done. */
  usage: 2,
} as const;

/**
 * An error meant for the person at the terminal: printed as one line without a stack trace, then the process
 * exits with `exitCode`. Anything else that escapes a command is a bug and is reported as such.
 */
export class CliError extends Error {
  /** Process exit code. */
  readonly exitCode: number;
  /** An optional second line, e.g. which command to run for help. */
  readonly hint: string | null;

  constructor(message: string, options: { exitCode?: number; hint?: string } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT.usage;
    this.hint = options.hint ?? null;
  }
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a path component is not a folder',
  EISDIR: 'is a folder',
};

/** Says in a few words why a file operation failed (`permission denied`), from its error code. */
export function fsReason(error: NodeJS.ErrnoException): string {
  return (
    (error.code !== undefined ? FS_REASONS[error.code] : undefined) ?? error.message ?? String(error.code)
  );
}

/**
 * The exit code of a run that did its work: 1 when the input had error diagnostics and `--strict` was
 * given, else 0.
 *
 * @param errors Number of error diagnostics.
 * @param strict Whether `--strict` was given.
 */
export function exitCodeFor(errors: number, strict: boolean): number {
  return errors > 0 && strict ? EXIT.diagnostics : EXIT.ok;
}
