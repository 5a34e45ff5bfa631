import { totalTokens } from '@cctrail/core';
import { compact, durationShort, type Figure, num, plural } from '../html/format.js';
import type { ManifestSession } from '../site/site-model.js';

/** Header figures of a session page. */
export function sessionFigures(s: ManifestSession): Figure[] {
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
    forksFigure(s),
    { label: 'Sub-agents', value: num(s.summary.sidechains) },
    { label: 'Compactions', value: num(s.summary.compactions) },
    { label: 'Tool calls', value: num(s.summary.toolCalls) },
    tokensFigure(s),
  ];
}

/**
 * Tokens of the session's responses, and of its runs without a transcript counted once at what their spawns
 * report (their last responses: a lower bound, marked "≥").
 */
function tokensFigure(s: ManifestSession): Figure {
  const u = s.summary.usage;
  const runs = s.sidechains.filter((c) => c.reported);
  const reported = runs.reduce((a, c) => a + c.tokens, 0);
  const kinds = u
    ? `input ${num(u.inputTokens)} · output ${num(u.outputTokens)} · cache write ${num(u.cacheCreationInputTokens)} · cache read ${num(u.cacheReadInputTokens)} · ${num(u.responses)} responses`
    : '';
  if (runs.length === 0) return { label: 'Tokens', value: compact(totalTokens(u)), title: kinds };
  return {
    label: 'Tokens ≥',
    value: compact(totalTokens(u) + reported),
    title: `${kinds}${kinds ? '; ' : ''}and ≥ ${num(reported)} reported by the spawn result for ${plural(runs.length, 'sub-agent')} without a transcript (their last responses)`,
  };
}

/** Real forks (rewinds and retries) with the other branch points counted apart. */
function forksFigure(s: ManifestSession): Figure {
  const k = s.summary.forkKinds;
  const abandoned = `${num(s.summary.abandonedEntries)} entries on abandoned branches`;
  if (!k) return { label: 'Forks', value: num(s.summary.forks), title: abandoned };
  const parts = [
    k.rewinds > 0 ? `${num(k.rewinds)} ${k.rewinds === 1 ? 'rewind' : 'rewinds'}` : '',
    k.retries > 0 ? `${num(k.retries)} ${k.retries === 1 ? 'retry' : 'retries'}` : '',
  ].filter((p) => p !== '');
  return {
    label: 'Forks',
    value: num(s.summary.forks),
    sub: parts.join(' · '),
    title: `${num(k.rewinds)} rewinds, ${num(k.retries)} retries · ${abandoned} · not forks: ${num(k.sideCommands)} side commands, ${num(k.artefacts)} recording artefacts`,
  };
}
