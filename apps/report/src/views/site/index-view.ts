import { sessionTitle, totalTokens } from '@cctrail/core';
import { isFailedSpawn } from '../agents/agents.js';
import {
  type ConversationListing,
  conversationListing,
  conversationTotals,
  sessionLinkById,
} from '../conversations/conversation-view.js';
import { compact, type Figure, num } from '../html/format.js';
import { pageHref, sessionRoute } from '../html/links.js';
import { type ArchivedNote, archivedNote } from './archived-note.js';
import type { ManifestSession, SiteManifest } from './site-model.js';

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
  /** USD, null for a session written without cost. */
  costUsd: number | null;
  errors: number;
  duplicateOf: string | null;
  /** The original's page, when a duplicate's original is in the report. */
  duplicateHref: string | null;
  /** Duplicate copies of this session, folded under it (`foldCopies`). */
  copies: SessionRow[];
  /** Set when the archive kept the session without reading its transcript (deleted, or not in the input). */
  archived: ArchivedNote | null;
  problem: string | null;
}

/** The index page: projects with their session rows, and archive totals. */
export interface IndexView {
  projects: { name: string; slug: string; rows: SessionRow[]; sessions: number; tokens: number }[];
  totals: Figure[];
  /** Conversations over several files. */
  conversations: ConversationListing[];
}

/**
 * Folds duplicate copies under their original: a row whose original is among `rows` goes into the original's
 * `copies` (in the order given) and leaves the top level; a copy whose original is not there stays a row of its own.
 * A copy of a copy folds under the first original up the chain; of copies that name each other in a loop, the
 * first in `rows` is the original.
 */
export function foldCopies<R extends { id: string; duplicateOf: string | null; copies: R[] }>(
  rows: readonly R[],
): R[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const order = new Map(rows.map((r, i) => [r, i]));
  const rootOf = (r: R): R => {
    const chain: R[] = [r];
    let at = r;
    for (let next = byId.get(at.duplicateOf ?? ''); next; next = byId.get(at.duplicateOf ?? '')) {
      // Copies that name each other: the first of the loop in the rows' order is the original.
      if (chain.includes(next)) {
        const loop = chain.slice(chain.indexOf(next));
        return loop.reduce((a, b) => (order.get(b)! < order.get(a)! ? b : a));
      }
      chain.push(next);
      at = next;
    }
    return at;
  };
  const top: R[] = [];
  for (const r of rows) {
    const root = rootOf(r);
    if (root === r) top.push(r);
    else root.copies.push(r);
  }
  return top;
}

/** Sub-agent runs of a session: its sidechains but failed spawns (the index line's count when not loaded). */
function runsOf(s: ManifestSession): number {
  if (s.loadErrors.length > 0) return s.summary.sidechains ?? 0;
  return s.sidechains.filter((c) => !isFailedSpawn(c)).length;
}

/** Computes the index page from the manifest (the session files are not opened). */
export function indexView(m: SiteManifest): IndexView {
  let sessions = 0;
  let entries = 0;
  let tokens = 0;
  let compactions = 0;
  let sidechains = 0;
  let forks = 0;
  let duplicates = 0;
  const projects = m.projects.map((p) => {
    const rows = p.sessions.map((s): SessionRow => {
      const t = totalTokens(s.summary.usage);
      sessions++;
      // A duplicate copy of a session is listed, and counted once in the totals (as `stats` does); a file of a
      // conversation over several files counts with its conversation, once (below).
      if (s.summary.duplicateOf) duplicates++;
      if (!s.summary.duplicateOf && !s.summary.conversation) {
        entries += s.summary.entries ?? 0;
        tokens += t;
        compactions += s.summary.compactions ?? 0;
        sidechains += runsOf(s);
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
        sidechains: runsOf(s),
        compactions: s.summary.compactions ?? 0,
        toolCalls: s.summary.toolCalls ?? 0,
        tokens: t,
        costUsd: s.summary.cost?.usd ?? null,
        errors: s.summary.diagnostics?.error ?? 0,
        duplicateOf: s.summary.duplicateOf,
        duplicateHref: sessionLinkById(m, '', s.summary.duplicateOf)?.href ?? null,
        copies: [],
        archived: archivedNote(s.summary),
        problem: s.loadErrors.length > 0 ? s.loadErrors.join('; ') : null,
      };
    });
    rows.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
    return {
      name: p.name,
      slug: p.slug,
      rows: foldCopies(rows),
      sessions: rows.length,
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
    conversations: conversationListing(m),
    totals: [
      { label: 'Projects', value: num(m.projects.length) },
      {
        label: 'Sessions',
        value: num(sessions),
        ...(duplicates > 0
          ? { title: `${num(duplicates)} of them duplicate copies, left out of the totals` }
          : {}),
      },
      { label: 'Entries', value: num(entries), title: 'entries of every session, duplicates counted once' },
      {
        label: 'Tokens',
        value: compact(tokens),
        title: `${num(tokens)} tokens (input, output and cache), duplicates counted once`,
      },
      { label: 'Forks', value: num(forks) },
      {
        label: 'Sub-agents',
        value: num(sidechains),
        title: 'sub-agent runs (sidechains), failed spawns and duplicates left out',
      },
      { label: 'Compactions', value: num(compactions) },
    ],
  };
}
