import { totalTokens } from '@cctrail/core';
import type { Conversation } from '@cctrail/core/archive';
import type { FileRole } from './conversation-files.js';

/**
 * The timeline of a conversation's page: its epochs on the joined graph (each once however many files copy it),
 * the compaction that opens each, and its files named where they change. Archives written before joined epochs
 * get the files with their own compactions.
 */

/** How a file of the timeline is shown. */
export interface TimelineFile {
  sessionId: string;
  /** Its name on the page (`conversation-files.ts`): role, start and a telling detail. */
  title: string;
  role: FileRole;
  href: string | null;
}

/** One step of a conversation's timeline: a file, a compaction, or an epoch. */
export type TimelineRow =
  | (TimelineFile & {
      kind: 'file';
      startedAt: string | null;
      endedAt: string | null;
      /** How this file follows the one before (`compaction`, `resume`, `summary`, `fork`, `duplicate`), null for the first. */
      via: string | null;
      /** The file it continues, forks or repeats. */
      from: string | null;
    })
  | { kind: 'compaction'; sessionId: string; trigger: string | null; timestamp: string | null; epoch: number }
  | {
      kind: 'epoch';
      /** 0 for the first epoch. */
      epoch: number;
      entries: number;
      tokens: number;
      usd: number | null;
      /** The files that hold its entries, in time order. */
      files: TimelineFile[];
    };

/**
 * The rows of a conversation's timeline.
 *
 * @param conversation The conversation.
 * @param fileOf How a session of it is shown (title and link).
 */
export function conversationTimeline(
  conversation: Conversation,
  fileOf: (sessionId: string) => TimelineFile,
): TimelineRow[] {
  const member = new Map(conversation.sessions.map((m) => [m.id, m]));
  const fileRow = (id: string): TimelineRow => {
    const m = member.get(id)!;
    const link = m.continuedFrom ?? m.forkedFrom;
    return {
      kind: 'file',
      ...fileOf(id),
      startedAt: m.startedAt,
      endedAt: m.endedAt,
      via: link?.kind ?? (m.duplicateOf ? 'duplicate' : null),
      from: link?.session ?? m.duplicateOf,
    };
  };
  const rows: TimelineRow[] = [];
  const shown = new Set<string>();
  if (!conversation.epochs) {
    let epoch = 0;
    for (const m of conversation.sessions) {
      rows.push(fileRow(m.id));
      for (const c of m.compactions)
        rows.push({
          kind: 'compaction',
          sessionId: m.id,
          trigger: c.trigger,
          timestamp: c.timestamp,
          epoch: ++epoch,
        });
    }
    return rows;
  }
  conversation.epochs.forEach((e, epoch) => {
    const opened = e.compaction === null ? undefined : e.files.find((f) => member.has(f));
    if (e.compaction !== null)
      rows.push({
        kind: 'compaction',
        sessionId: opened ?? '',
        trigger: e.trigger,
        timestamp: e.timestamp,
        epoch,
      });
    const files = e.files.filter((f) => member.has(f));
    for (const f of files) {
      if (shown.has(f)) continue;
      shown.add(f);
      rows.push(fileRow(f));
    }
    rows.push({
      kind: 'epoch',
      epoch,
      entries: e.entries,
      tokens: totalTokens(e.usage),
      usd: e.cost ? e.cost.usd : null,
      files: files.map(fileOf),
    });
  });
  // Files without entries of their own (a summary-only file) come last, in time order.
  for (const m of conversation.sessions) if (!shown.has(m.id)) rows.push(fileRow(m.id));
  return rows;
}
