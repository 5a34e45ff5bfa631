import { totalTokens } from '@cctrail/core';
import type { ArchiveStats } from '@cctrail/core/archive';
import { crossFileConversations } from '../archive/conversations.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { formatCount, formatTokens, printable, type Style, table } from '../terminal/terminal.js';
import { costCell } from './stats-cost.js';

/**
 * The statistics with the conversations that span several files (`stats.conversations`), each with its totals
 * counted once over its files; unchanged when no file continues, forks or copies another.
 *
 * @param stats The statistics of the sessions.
 * @param sessions Their skeletons (duplicates marked).
 */
export function withConversations(stats: ArchiveStats, sessions: readonly Skeleton[]): ArchiveStats {
  const conversations = crossFileConversations(sessions);
  return conversations.length === 0 ? stats : { ...stats, conversations };
}

/**
 * The table of conversations over several files, for `cctrail stats` without `--json`; empty when there are none.
 *
 * @param stats The statistics, with `conversations`.
 * @param style Colors (or none).
 */
export function renderConversations(stats: ArchiveStats, style: Style): string {
  const conversations = stats.conversations ?? [];
  if (conversations.length === 0) return '';
  const rows = conversations.map((c) => [
    printable(c.id.slice(0, 8)),
    c.sessions.map((s) => printable(s.id.slice(0, 8))).join(' → '),
    formatCount(c.totals.entries),
    String(c.totals.compactions),
    String(c.totals.forks),
    String(c.totals.sidechains),
    formatTokens(totalTokens(c.totals.usage)),
    c.totals.cost ? costCell(c.totals.cost) : '',
  ]);
  const header = ['conversation', 'files', 'entries', 'compactions', 'forks', 'agents', 'tokens', 'cost'];
  return `\n${style.bold('Conversations over several files')}\n${table(header, rows, ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'])}\n`;
}
