import { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, diagnostic } from '../diagnostics.js';

/** Problems of single lines: all a file without any record can have. */
const LINE_PROBLEMS: ReadonlySet<DiagnosticCode> = new Set([
  'invalid-json',
  'not-an-object',
  'torn-line',
  'invalid-utf8',
]);

/**
 * Reports a file that holds lines but not one record (another tool's pretty-printed JSON among the transcripts)
 * as one `not-a-transcript` warning. Its line problems, the last diagnostics of the read, are folded into it
 * (their number in the message, the first line's text as `raw`) instead of one error per line; a file with a
 * single bad line keeps that line's diagnostic (a transcript whose first write was torn).
 *
 * @param path The file.
 * @param diagnostics The diagnostics of the read so far, ending with the file's; changed in place.
 */
export function notATranscript(path: string, diagnostics: Diagnostic[]): void {
  let start = diagnostics.length;
  while (start > 0) {
    const previous = diagnostics[start - 1]!;
    if (previous.file !== path || previous.line === null || !LINE_PROBLEMS.has(previous.code)) break;
    start--;
  }
  const lines = new Set(diagnostics.slice(start).map((d) => d.line)).size;
  if (lines < 2) {
    diagnostics.push(diagnostic('not-a-transcript', path, null));
    return;
  }
  const raw = diagnostics.slice(start).find((d) => d.raw !== undefined)?.raw;
  diagnostics.length = start;
  diagnostics.push(
    diagnostic('not-a-transcript', path, null, {
      message: `${DIAGNOSTICS['not-a-transcript'].message} Its ${lines} lines are not JSON objects (the first is kept here).`,
      ...(raw !== undefined ? { raw } : {}),
    }),
  );
}
