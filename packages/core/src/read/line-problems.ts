/**
 * Lines that are never parsed into records, because a record made of them could stop the run: a line too long
 * to become one string, and a line nested deeper than `MAX_DEPTH`. Each becomes a diagnostic that keeps what can
 * be kept of its text.
 */

import type { Diagnostic, DiagnosticCode } from '../diagnostics.js';
import { MAX_DEPTH, nestsDeeperThan } from './line-depth.js';
import { decodeFull, type Line } from './read-lines.js';

/** Why a line is not parsed, as a diagnostic's code and details. */
export interface LineProblem {
  code: DiagnosticCode;
  details: Partial<Pick<Diagnostic, 'raw' | 'message'>>;
}

/**
 * The reason a line is not parsed, or null when it may be.
 *
 * @param line A line as read (shrunk or not).
 */
export function lineProblem(line: Line): LineProblem | null {
  if (line.oversize) {
    return {
      code: 'line-too-long',
      details: {
        raw: line.text,
        message: `The line is ${line.length} bytes long, more than one string can hold; it was not read. Its first ${line.text.length} characters are kept here.`,
      },
    };
  }
  if (nestsDeeperThan(line.text)) {
    return {
      code: 'too-deep',
      details: {
        raw: line.full ? decodeFull(line.full) : line.text,
        message: `The line nests objects and arrays more than ${MAX_DEPTH} levels deep; it was not parsed, and its raw text is kept here.`,
      },
    };
  }
  return null;
}
