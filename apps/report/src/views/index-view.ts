import { sessionTitle, totalTokens } from '@cctrail/core';
import { conversationTotals } from './conversation-view.js';
import { compact, type Figure, num } from './format.js';
import { pageHref, sessionRoute } from './links.js';
import type { SiteManifest } from './site-model.js';

/** One row of the index's session table. */
interface SessionRow {
  title: string;
  href: string;
  id: string;
  startedAt: string | null;
  durationMs: number | null;
  entries: number;
  forks: number;
  sidechains: number;
  compactions: number;
  toolCalls: number;
  tokens: number;
  errors: number;
  duplicateOf: string | null;
  problem: string | null;
}

/** The index page: projects with their session rows, and archive totals. */
export interface IndexView {
  projects: { name: string; slug: string; rows: SessionRow[]; tokens: number }[];
  totals: Figure[];
}

/** Computes the index page from the manifest (the session files are not opened). */
export function indexView(m: SiteManifest): IndexView {
  let sessions = 0;
  let entries = 0;
  let tokens = 0;
  let compactions = 0;
  let sidechains = 0;
  let forks = 0;
  const projects = m.projects.map((p) => {
    const rows = p.sessions.map((s): SessionRow => {
      const t = totalTokens(s.summary.usage);
      sessions++;
      // A file of a conversation over several files counts with its conversation, once (below).
      if (!s.summary.conversation) {
        entries += s.summary.entries ?? 0;
        if (!s.summary.duplicateOf) tokens += t;
        compactions += s.summary.compactions ?? 0;
        sidechains += s.summary.sidechains ?? 0;
        forks += s.summary.forks ?? 0;
      }
      return {
        title: sessionTitle({ ...s.summary, id: s.id }),
        href: pageHref('', sessionRoute(p.slug, s.slug)),
        id: s.id,
        startedAt: s.summary.startedAt,
        durationMs: s.summary.durationMs,
        entries: s.summary.entries ?? 0,
        forks: s.summary.forks ?? 0,
        sidechains: s.summary.sidechains ?? 0,
        compactions: s.summary.compactions ?? 0,
        toolCalls: s.summary.toolCalls ?? 0,
        tokens: t,
        errors: s.summary.diagnostics?.error ?? 0,
        duplicateOf: s.summary.duplicateOf,
        problem: s.loadErrors.length > 0 ? s.loadErrors.join('; ') : null,
      };
    });
    rows.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
    return {
      name: p.name,
      slug: p.slug,
      rows,
      tokens: rows.reduce((a, r) => a + (r.duplicateOf ? 0 : r.tokens), 0),
    };
  });
  const joined = conversationTotals(m);
  entries += joined.entries;
  tokens += joined.tokens;
  compactions += joined.compactions;
  sidechains += joined.sidechains;
  forks += joined.forks;
  return {
    projects,
    totals: [
      { label: 'Projects', value: num(m.projects.length) },
      { label: 'Sessions', value: num(sessions) },
      { label: 'Entries', value: num(entries) },
      {
        label: 'Tokens',
        value: compact(tokens),
        title: `${num(tokens)} tokens (input, output and cache), duplicates counted once`,
      },
      { label: 'Forks', value: num(forks) },
      { label: 'Sub-agents', value: num(sidechains), title: 'sub-agent runs (sidechains)' },
      { label: 'Compactions', value: num(compactions) },
    ],
  };
}
