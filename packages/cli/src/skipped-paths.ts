/**
 * Input paths a run did not read (a link out of the folder, a FIFO, a folder named `*.jsonl`, a folder that
 * cannot be listed) as `skipped-path` diagnostics: the archive's index, `stats --json` and the report list them.
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
    const { severity } = DIAGNOSTICS['skipped-path'];
    return { code: 'skipped-path', severity, message: `Not read: ${skip.reason}.`, file, line: null };
  });
}
