/**
 * Compaction helpers (`agent-acompact-*` files) write lines whose parents are in the session's main file, by
 * design (FORMAT.md §7). The DAG reports them as orphans before it knows which files are helpers; once the
 * sidechains are found, those diagnostics become `compaction-helper-link`.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Sidechain } from '../model/session.js';

/**
 * Turns the `orphan` diagnostics of compaction helper files into `compaction-helper-link` ones (in place).
 *
 * @param sidechains The session's sidechains.
 * @param diagnostics The session's diagnostics.
 */
export function markHelperLinks(sidechains: readonly Sidechain[], diagnostics: Diagnostic[]): void {
  const helpers = new Set(sidechains.filter((s) => s.role === 'compaction').map((s) => s.file));
  if (helpers.size === 0) return;
  for (const d of diagnostics) {
    if (d.code !== 'orphan' || !helpers.has(d.file)) continue;
    d.code = 'compaction-helper-link';
    d.severity = 'info';
    d.message = `${d.message.replace(ALTERNATIVE_ROOT, '')} ${HELPER_NOTE}`;
  }
}

/** The end of an `orphan` message, which does not hold for a helper's line. */
const ALTERNATIVE_ROOT = / the entry is an alternative root\.$/;

const HELPER_NOTE = "The compaction helper's lines point into the main file by design.";
