/**
 * Input paths a run did not read (a link out of the folder, a FIFO, a folder named `*.jsonl`, a folder that
 * cannot be listed, a name that is not UTF-8) as `skipped-path` diagnostics: the archive's index, `stats --json`
 * and the report list them. Hidden folders, not searched by design, are notes (`info`).
 */

import { relative, sep } from 'node:path';
import { DIAGNOSTICS, type Diagnostic } from '@cctrail/core';
import type { Discovery } from '@cctrail/core/node';

/**
 * The diagnostics of skipped paths, each with its path relative to the inputs' root (as session files are).
 *
 * @param skipped What discovery skipped, with the reasons.
 * @param root The common root of the inputs.
 */
export function skippedPathDiagnostics(skipped: Discovery['skipped'], root: string): Diagnostic[] {
  return skipped.map((skip) => {
    const path = relative(root, skip.path);
    const file = path === '' || path.startsWith('..') ? skip.path : path.split(sep).join('/');
    // A hidden folder is not searched by design: a note, not a problem.
    const severity = skip.hidden ? 'info' : DIAGNOSTICS['skipped-path'].severity;
    return { code: 'skipped-path', severity, message: `Not read: ${skip.reason}.`, file, line: null };
  });
}

/**
 * The lines a run prints about what discovery skipped: one per problem, and one note for all hidden folders.
 *
 * @param skipped What discovery skipped.
 * @param shown How a path is shown (relative to the working directory).
 */
export function skippedPathLines(skipped: Discovery['skipped'], shown: (path: string) => string): string[] {
  const lines = skipped
    .filter((skip) => !skip.hidden)
    .map((skip) => `cctrail: skipped ${shown(skip.path)}: ${skip.reason}`);
  const hidden = skipped.filter((skip) => skip.hidden).map((skip) => shown(skip.path));
  if (hidden.length > 0) {
    const names = hidden.slice(0, 5).join(', ') + (hidden.length > 5 ? ` and ${hidden.length - 5} more` : '');
    lines.push(
      `cctrail: note: not searched: ${hidden.length === 1 ? 'a hidden folder' : `${hidden.length} hidden folders`}, ${names} (give ${hidden.length === 1 ? 'it' : 'one'} as an input to read it)`,
    );
  }
  return lines;
}
