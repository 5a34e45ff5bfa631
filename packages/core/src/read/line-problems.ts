/**
 * Lines that are never parsed into records, because a record made of them could stop the run: a line too long
 * to become one string, and a line nested deeper than `MAX_DEPTH`. Each becomes a diagnostic that keeps what can
 * be kept of its text.
 */

import type { Diagnostic, DiagnosticCode } from '../diagnostics.js';
import { MAX_DEPTH, nestsDeeperThan } from './line-depth.js';
import { decodeFull, type Line, MAX_LINE_BYTES } from './read-lines.js';

/** Why a line is not parsed, as a diagnostic's code and details. */
export interface LineProblem {
  code: DiagnosticCode;
  details: Partial<Pick<Diagnostic, 'raw' | 'message'>>;
}

/**
 * A line's text this long or shorter, if it parses, nests no deeper than `MAX_DEPTH`: each level takes an opening
 * and a closing bracket.
 */
const SHORT = 2 * MAX_DEPTH + 1;

/**
 * The reason a line is not parsed, or null when it may be. A short line (`SHORT`, read whole) is not checked for
 * depth here: if it parses it cannot be too deep, and if it does not, `unparsedLineProblem` checks it.
 *
 * @param line A line as read (shrunk or not).
 */
export function lineProblem(line: Line): LineProblem | null {
  if (line.oversize) {
    return {
      code: 'line-too-long',
      details: {
        raw: line.text,
        message: `The line is ${line.length} bytes long, more than cctrail reads (${MAX_LINE_BYTES} bytes); it was not read. Its first ${line.text.length} characters are kept here.`,
      },
    };
  }
  return isShort(line) ? null : depthProblem(line);
}

/**
 * The reason a line whose text does not parse is not parsed at all (its depth, for a short line `lineProblem`
 * did not check), or null when it is only invalid.
 *
 * @param line A line that `lineProblem` let through and whose text does not parse.
 */
export function unparsedLineProblem(line: Line): LineProblem | null {
  return isShort(line) ? depthProblem(line) : null;
}

function isShort(line: Line): boolean {
  return line.full === undefined && line.text.length <= SHORT;
}

function depthProblem(line: Line): LineProblem | null {
  if (!nestsDeeperThan(line.text)) return null;
  return {
    code: 'too-deep',
    details: {
      raw: line.full ? decodeFull(line.full) : line.text,
      message: `The line nests objects and arrays more than ${MAX_DEPTH} levels deep; it was not parsed, and its raw text is kept here.`,
    },
  };
}
