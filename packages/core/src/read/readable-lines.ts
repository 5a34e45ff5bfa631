/**
 * A file's line batches, or what could be read of them: an error of the source (a file that cannot be opened,
 * a read that fails) ends the file with a diagnostic instead of the run.
 */

import { type Diagnostic, diagnostic } from '../diagnostics.js';
import type { TranscriptSource } from '../source.js';
import { type Line, type ReadOptions, readLineBatches } from './read-lines.js';

/**
 * `readLineBatches` of a source; when reading fails, adds an `unreadable-file` diagnostic and ends.
 *
 * @param source The file.
 * @param options As for `readLineBatches`.
 * @param diagnostics Where the diagnostic goes.
 */
export async function* readableLineBatches(
  source: TranscriptSource,
  options: ReadOptions,
  diagnostics: Diagnostic[],
): AsyncGenerator<Line[]> {
  let batches: AsyncIterator<Line[]>;
  try {
    batches = readLineBatches(source.read(), options)[Symbol.asyncIterator]();
  } catch (error) {
    diagnostics.push(unreadable(source.path, error));
    return;
  }
  for (;;) {
    let next: IteratorResult<Line[]>;
    try {
      next = await batches.next();
    } catch (error) {
      diagnostics.push(unreadable(source.path, error));
      return;
    }
    if (next.done) return;
    yield next.value;
  }
}

function unreadable(path: string, error: unknown): Diagnostic {
  const code = (error as { code?: unknown }).code;
  const reason =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'ENOENT'
        ? 'the file is gone'
        : error instanceof Error
          ? error.message
          : String(error);
  return diagnostic('unreadable-file', path, null, {
    message: `The file could not be read (${reason}); the lines read before are kept, the run went on.`,
  });
}
