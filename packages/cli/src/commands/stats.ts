import type { Command } from '../command-line/command.js';
import { INPUT_OPTIONS } from '../command-line/input-options.js';
import { COST_BREAKDOWNS } from './stats-by.js';

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
  async run(context) {
    return (await import('./stats-run.js')).runStats(context);
  },
};
