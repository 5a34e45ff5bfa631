/** `summary` lines name the leaf of the conversation they summarize; often that leaf is in another session. */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import type { MetadataRecord } from '../model/entry.js';

/**
 * Adds a `summary-leaf-missing` diagnostic for each summary whose leaf is not an entry of the session.
 *
 * @param metadata The session's metadata records.
 * @param dag The linked session.
 * @param diagnostics Where the diagnostics go.
 */
export function checkSummaryLeaves(
  metadata: readonly MetadataRecord[],
  dag: Dag,
  diagnostics: Diagnostic[],
): void {
  for (const record of metadata) {
    const leafUuid = record.record.leafUuid;
    if (record.type === 'summary' && typeof leafUuid === 'string' && !dag.index.has(leafUuid)) {
      diagnostics.push(
        diagnostic('summary-leaf-missing', record.source.file, record.source.line, {
          message: `Summary names leaf ${leafUuid}, which is not in this session.`,
        }),
      );
    }
  }
}
