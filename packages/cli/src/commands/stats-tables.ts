import type { ArchiveStats } from '@cctrail/core/archive';
import { plural } from '../terminal/diagnostic-output.js';
import { forkKindsLine } from '../terminal/fork-kinds-line.js';
import {
  formatCount,
  formatShare,
  formatTokens,
  printable,
  type Style,
  table,
} from '../terminal/terminal.js';
import { costLines, figureCells } from './stats-cost.js';

/**
 * Renders statistics as text tables for the terminal.
 *
 * @param stats From `archiveStats`.
 * @param style Colors (or none).
 */
export function renderStats(stats: ArchiveStats, style: Style): string {
  const out: string[] = [];
  const { totals } = stats;
  const usage = totals.usage;
  out.push(
    style.bold('Sessions'),
    stats.sessions.length === 0
      ? '  none'
      : table(
          [
            'session',
            'project',
            'entries',
            'forks',
            'agents',
            'compactions',
            'tools',
            'tool errors',
            'tokens',
            'cost',
            'diagnostics',
          ],
          stats.sessions.map((s) => [
            s.duplicateOf
              ? style.dim(`${printable(s.sessionId.slice(0, 8))} (dup)`)
              : printable(s.sessionId.slice(0, 8)),
            printable(shorten(s.project ?? '', 40)),
            formatCount(s.entries),
            String(s.branches.forks),
            String(s.sidechains.length),
            String(s.compactions.total + s.compactions.micro),
            formatCount(s.tools.calls),
            s.tools.errors > 0 ? style.yellow(String(s.tools.errors)) : '0',
            ...figureCells(s),
            s.diagnostics.error > 0
              ? style.red(`${s.diagnostics.error}E ${s.diagnostics.warning}W`)
              : s.diagnostics.warning > 0
                ? style.yellow(`${s.diagnostics.warning}W`)
                : '',
          ]),
          ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
        ),
    '',
    style.bold('Totals'),
    `  ${plural(totals.sessions, 'session')}${totals.duplicates ? ` (${totals.duplicates} duplicate)` : ''}, ` +
      `${formatCount(totals.entries)} entries from ${formatCount(totals.lines)} lines, ` +
      `${plural(totals.branches.forks, 'fork')} (${formatCount(totals.branches.abandonedEntries)} abandoned entries), ` +
      `${plural(totals.sidechains, 'sidechain')}`,
    `  branch points: ${forkKindsLine(totals.branches)}`,
    `  tools: ${formatCount(totals.tools.calls)} calls, ${formatCount(totals.tools.paired)} paired, ` +
      `${formatCount(totals.tools.errors)} errors, ${formatCount(totals.tools.missingResults)} without result`,
    `  tokens: ${formatTokens(usage.inputTokens)} input, ${formatTokens(usage.outputTokens)} output, ` +
      `${formatTokens(usage.cacheCreationInputTokens)} cache write, ${formatTokens(usage.cacheReadInputTokens)} cache read ` +
      `(${formatCount(usage.responses)} API responses)` +
      (totals.reportedBySpawn
        ? `; ≥ ${formatTokens(totals.tokens)} with the runs without a transcript (below)`
        : ''),
    ...costLines(stats),
  );
  const only = stats.sessions.length === 1 ? stats.sessions[0] : undefined;
  if (only && only.sidechains.length > 0) {
    out.push(
      '',
      style.bold('Sidechains'),
      table(
        [
          'sidechain',
          'agent type',
          'role',
          'depth',
          'entries',
          'prompts',
          'status',
          'parallel',
          'tokens',
          'cost',
        ],
        only.sidechains.map((s) => [
          printable(s.id),
          printable(s.agentType),
          s.role,
          String(s.depth),
          formatCount(s.entries),
          String(s.prompts),
          s.status === 'error' ? style.yellow(s.status) : s.status,
          s.parallelGroup === null ? '' : `#${s.parallelGroup}`,
          ...figureCells(s),
        ]),
        ['left', 'left', 'left', 'right', 'right', 'right', 'left', 'left', 'right', 'right'],
      ),
    );
  }
  if (stats.agents.length > 0) {
    out.push(
      '',
      style.bold('Agents'),
      table(
        [
          'agent type',
          'runs',
          'median entries',
          'depths',
          'multi-turn',
          'nested',
          'parallel',
          'errors',
          'tokens',
          'cost',
        ],
        stats.agents.map((a) => [
          printable(a.agentType),
          String(a.invocations),
          String(a.medianEntries),
          Object.entries(a.depths)
            .map(([depth, count]) => `${depth}:${count}`)
            .join(' '),
          formatShare(a.multiTurnShare),
          String(a.nested),
          String(a.parallel),
          a.errors > 0 ? style.yellow(formatShare(a.errorRate)) : '0%',
          ...figureCells(a),
        ]),
        ['left', 'right', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  }
  const p = stats.agentPatterns;
  if (p.sessionsWithAgents > 0) {
    out.push(
      `  ${plural(p.sessionsWithAgents, 'session')} with sub-agents; ` +
        `${plural(p.parallelGroups, 'parallel group')}${p.maxParallel > 0 ? ` (up to ${p.maxParallel} at once)` : ''}; ` +
        `nesting depth up to ${p.maxDepth}`,
    );
  }
  const c = stats.compaction;
  out.push(
    '',
    style.bold('Compactions'),
    c.total + c.micro === 0
      ? '  none'
      : `  ${c.total} full (${c.auto} auto, ${c.manual} manual${c.unknownTrigger ? `, ${c.unknownTrigger} unknown` : ''}), ` +
          `${c.micro} micro; in ${plural(c.sessionsWithCompactions, 'session')}, at most ${c.maxPerSession} in one; ` +
          `${c.meanEntriesBetween.toFixed(1)} entries between compactions on average`,
  );
  return `${out.join('\n')}\n`;
}

/** Keeps the end of a long name, which is where project folder names differ: `…/spotter-worktrees`. */
function shorten(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}
