import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveStats } from '@cctrail/core/archive';
import { flag, stringOption } from '../command-line/args.js';
import type { Command, Io } from '../command-line/command.js';
import { exitCodeFor } from '../command-line/errors.js';
import { INPUT_OPTIONS, inputPaths, readFilters } from '../input/input.js';
import { retentionFacts, retentionLine } from '../retention/notice.js';
import { privateCache } from '../runtime/cache-contents.js';
import { cacheName, cacheRoot } from '../runtime/cache-dir.js';
import { JobRunner } from '../runtime/job-runner.js';
import { plural, printDiagnostics } from '../terminal/diagnostic-output.js';
import { forkKindsLine } from '../terminal/fork-kinds-line.js';
import {
  formatCount,
  formatShare,
  formatTokens,
  printable,
  type Style,
  styleFor,
  table,
} from '../terminal/terminal.js';
import { renderConversations } from './stats-conversations.js';
import { COST_BREAKDOWNS, costBreakdown, costLines, figureCells, renderCostBreakdown } from './stats-cost.js';
import { statsOf } from './stats-of.js';

/** `cctrail stats`: counts, tokens, agents and compactions. */
export const statsCommand: Command = {
  name: 'stats',
  summary: 'summarize sessions: entries, branches, agents, compactions, tools, tokens, cost',
  usage: 'stats [paths…] [--json] [--by day|model|project|agent] [--no-cache]',
  description: [
    'Prints a summary of the sessions: one row per session, then the sub-agents by type (invocations,',
    'median entries, depth, multi-turn share, nesting, parallel runs, error rate, tokens) and compaction',
    'frequency. With --json it prints a stable shape for scripts instead (schema/stats.schema.json).',
    'Tokens are counted once per API response, across files. Cost is in US dollars, priced with the',
    'bundled @pydantic/genai-prices table (its version and date are printed); a model it does not know',
    'is counted as "without a price", never guessed. --by adds the cost per UTC day, model, project or',
    'agent type (--json always holds every breakdown).',
    'Sessions contained in another one',
    '(duplicates) are listed but left out of the totals.',
    'What each session adds up to is cached ($CCTRAIL_CACHE_DIR, else ~/.cache/cctrail): the next run',
    'reads again only the sessions whose files changed, and a run over unchanged files prints the last result.',
  ].join('\n'),
  options: [
    { name: 'json', type: 'boolean', description: 'print JSON (schema/stats.schema.json) instead of tables' },
    {
      name: 'by',
      type: 'string',
      value: 'WHAT',
      description: `also print the cost by ${COST_BREAKDOWNS.join(', ')}`,
    },
    {
      name: 'no-cache',
      type: 'boolean',
      description: 'read every session again; neither use nor keep the cache',
    },
    ...INPUT_OPTIONS,
  ],
  examples: [
    { command: 'cctrail stats', comment: 'everything under ~/.claude/projects' },
    { command: 'cctrail stats --project myapp --since 2025-06-01', comment: 'one project, since June' },
    { command: 'cctrail stats --json | jq .totals.usage', comment: 'token totals for a script' },
    { command: 'cctrail stats --by day', comment: 'what each day cost' },
  ],
  async run({ options, positionals, io }) {
    const filters = readFilters(options);
    const by = costBreakdown(stringOption(options, 'by'));
    const runner = new JobRunner(io.env, { shareThisThread: true });
    const cacheFile = flag(options, 'no-cache') ? undefined : statsCacheFile(positionals, io);
    // Without a cache to read, every session will be built: the workers start while the sessions are found.
    if (cacheFile === undefined || !existsSync(cacheFile)) runner.start();
    const { sessions, stats, archiveOnly } = await statsOf(
      positionals,
      filters,
      io,
      runner,
      cacheFile,
    ).finally(() => runner.close());
    if (flag(options, 'json')) {
      io.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
    } else {
      const style = styleFor(io.stdout, io.env);
      io.stdout.write(renderStats(stats, style) + renderConversations(stats, style));
      if (by !== null) io.stdout.write(`\n${renderCostBreakdown(stats, by, style)}\n`);
      io.stdout.write(`\n${retentionLine(retentionFacts(io, archiveOnly))}\n`);
    }
    if (sessions.length === 0) io.stderr.write('No session matches the filters.\n');
    const tally = printDiagnostics(sessions, io, flag(options, 'verbose') || flag(options, 'strict'));
    return exitCodeFor(tally.error, flag(options, 'strict'));
  },
};

/**
 * The file `stats` keeps session digests in, one per list of input paths: `<cache>/stats/<name>.json` (see
 * `cacheRoot`); its last result is kept beside it (`statsResultFile`).
 */
function statsCacheFile(positionals: readonly string[], io: Io): string {
  const inputs = [...new Set(inputPaths(positionals, io))].sort();
  privateCache(cacheRoot(io.env, io.cwd));
  return join(cacheRoot(io.env, io.cwd), 'stats', `${cacheName(JSON.stringify(inputs))}.json`);
}

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
