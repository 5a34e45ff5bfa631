import { totalTokens } from '@cctrail/core';
import { compact, durationShort, type Figure, num } from './format.js';
import type { ManifestSession } from './site-model.js';

/** Header figures of a session page. */
export function sessionFigures(s: ManifestSession): Figure[] {
  const u = s.summary.usage;
  return [
    {
      label: 'Started (UTC)',
      value: s.summary.startedAt?.slice(0, 10) ?? '—',
      sub: s.summary.startedAt?.slice(11, 16) ?? '',
    },
    {
      label: 'Duration',
      value: s.summary.durationMs === null ? '—' : durationShort(s.summary.durationMs),
    },
    {
      label: 'Entries',
      value: num(s.summary.entries),
      title: `${num(s.activeEntries)} on the active path of the main conversation`,
    },
    {
      label: 'Forks',
      value: num(s.summary.forks),
      title: `${num(s.summary.abandonedEntries)} entries on abandoned branches`,
    },
    { label: 'Sub-agents', value: num(s.summary.sidechains) },
    { label: 'Compactions', value: num(s.summary.compactions) },
    { label: 'Tool calls', value: num(s.summary.toolCalls) },
    {
      label: 'Tokens',
      value: compact(totalTokens(u)),
      title: u
        ? `input ${num(u.inputTokens)} · output ${num(u.outputTokens)} · cache write ${num(u.cacheCreationInputTokens)} · cache read ${num(u.cacheReadInputTokens)} · ${num(u.responses)} responses`
        : '',
    },
  ];
}
