import { totalTokens } from '@cctrail/core';
import { type ArchiveStats, withReported } from '@cctrail/core/archive';
import { crossFileConversations } from '../archive/conversations.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { formatCount, formatTokens, printable, type Style, table } from '../terminal/terminal.js';
import { figureCells } from './stats-cost.js';

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
  const rows = conversations.map((c) => {
    // Its runs without a transcript at what their spawns report, each once across its files (`≥`).
    const reported = c.totals.reportedBySpawn;
    const tokens = totalTokens(c.totals.usage) + (reported?.tokens ?? 0);
    const cells = c.totals.cost
      ? figureCells({ tokens, cost: withReported(c.totals.cost, reported), reportedBySpawn: reported })
      : [formatTokens(tokens), ''];
    return [
      printable(c.id.slice(0, 8)),
      c.sessions.map((s) => printable(s.id.slice(0, 8))).join(' → '),
      formatCount(c.totals.entries),
      String(c.totals.compactions),
      String(c.totals.forks),
      String(c.totals.sidechains),
      ...cells,
    ];
  });
  const header = ['conversation', 'files', 'entries', 'compactions', 'forks', 'agents', 'tokens', 'cost'];
  return `\n${style.bold('Conversations over several files')}\n${table(header, rows, ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'])}\n`;
}
