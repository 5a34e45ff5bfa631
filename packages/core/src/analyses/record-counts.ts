/** Every record type of a session, counted: DAG entries and metadata records alike, known or not (FORMAT.md §13.5). */
import type { Entry, MetadataRecord } from '../model/entry.js';

/**
 * Records of each type as written (`user`, `assistant`, `summary`, `atis-latch`, …), sorted by type.
 *
 * @param entries The session's entries (one per uuid).
 * @param metadata Its metadata records.
 */
export function recordTypes(
  entries: readonly Entry[],
  metadata: readonly MetadataRecord[],
): Record<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.type, (counts.get(entry.type) ?? 0) + 1);
  for (const record of metadata) counts.set(record.type, (counts.get(record.type) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
