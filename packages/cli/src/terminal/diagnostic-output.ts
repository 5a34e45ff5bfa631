import type { Diagnostic, Session } from '@cctrail/core';
import type { Io } from '../command-line/command.js';
import { printable, styleFor } from './terminal.js';

/** Diagnostics counted by severity. */
export interface DiagnosticTally {
  error: number;
  warning: number;
  info: number;
  /** Sessions with at least one diagnostic. */
  sessions: number;
}

/** Counts the diagnostics of sessions by severity. */
function tallyDiagnostics(sessions: readonly Pick<Session, 'diagnostics'>[]): DiagnosticTally {
  const tally: DiagnosticTally = { error: 0, warning: 0, info: 0, sessions: 0 };
  for (const session of sessions) {
    if (session.diagnostics.length > 0) tally.sessions++;
    for (const diagnostic of session.diagnostics) tally[diagnostic.severity]++;
  }
  return tally;
}

/**
 * Formats one diagnostic as `file:line  severity  message  [code]`, the shape editors and terminals turn
 * into links.
 *
 * @param diagnostic The diagnostic.
 * @param session Id of its session, used when the diagnostic concerns no file.
 */
function formatDiagnostic(diagnostic: Diagnostic, session: string): string {
  const where =
    diagnostic.file === null
      ? session
      : diagnostic.line === null
        ? diagnostic.file
        : `${diagnostic.file}:${diagnostic.line}`;
  return `${where}  ${diagnostic.severity}  ${diagnostic.message}  [${diagnostic.code}]`;
}

/**
 * Prints diagnostics to stderr: every one with `verbose` (or under `--strict`), else a one-line count.
 *
 * @param sessions Sessions whose diagnostics to print.
 * @param io Where to print.
 * @param verbose List them all.
 */
export function printDiagnostics(
  sessions: readonly Pick<Session, 'id' | 'diagnostics'>[],
  io: Io,
  verbose: boolean,
): DiagnosticTally {
  const tally = tallyDiagnostics(sessions);
  const style = styleFor(io.stderr, io.env);
  const total = tally.error + tally.warning + tally.info;
  if (total === 0) return tally;
  if (verbose) {
    const color = { error: style.red, warning: style.yellow, info: style.dim };
    for (const session of sessions) {
      for (const diagnostic of session.diagnostics) {
        const line = printable(formatDiagnostic(diagnostic, session.id));
        io.stderr.write(`${diagnostic.severity === 'info' ? line : color[diagnostic.severity](line)}\n`);
      }
    }
  }
  const parts = [plural(tally.error, 'error'), plural(tally.warning, 'warning'), `${tally.info} info`].join(
    ', ',
  );
  const hint = verbose ? '' : ' (--verbose lists them)';
  io.stderr.write(`${style.dim(`diagnostics: ${parts} in ${plural(tally.sessions, 'session')}${hint}`)}\n`);
  return tally;
}

/** `1 error`, `2 errors`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
