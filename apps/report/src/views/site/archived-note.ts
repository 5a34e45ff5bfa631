import type { ArchiveSessionSummary } from '../model.js';

/** What the report says of a session that its archive kept without reading its transcripts in the last run. */
export interface ArchivedNote {
  /** A short label for the index. */
  badge: string;
  /** A sentence for the session page (and the badge's title). */
  text: string;
}

/**
 * The note of a session the archive kept (index line `archived`, schema 3), or null for a session read from
 * its transcripts: Claude Code deleted them (`missing`), or they were outside the run's input (`kept`).
 *
 * @param summary The session's index line.
 */
export function archivedNote(summary: Pick<ArchiveSessionSummary, 'archived'>): ArchivedNote | null {
  const archived = summary.archived;
  if (!archived) return null;
  if (archived.status === 'missing')
    return {
      badge: 'only in the archive',
      text: `Only in the archive: its transcript was deleted${archived.lastSeen ? ` on or after ${archived.lastSeen}` : ''}.`,
    };
  return {
    badge: 'kept',
    text: `Kept from an earlier run: its transcript was not in this run's input${archived.lastSeen ? ` (last read ${archived.lastSeen})` : ''}.`,
  };
}
