import { sessionTitle, totalTokens } from '@cctrail/core';
import { isFailedSpawn } from '../agents/agents.js';
import {
  type ConversationListing,
  conversationListing,
  conversationTotals,
  sessionLinkById,
} from '../conversations/conversation-view.js';
import { archiveReported, ownReported } from '../figures/reported-once.js';
import { compact, type Figure, num, plural } from '../html/format.js';
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
  /** Its API responses' tokens, and what the spawns of its runs without a transcript report (its page's figure). */
  tokens: number;
  /** USD, null for a session written without cost; its runs without a transcript at their spawns' report. */
  costUsd: number | null;
  /** Some of `tokens` and `costUsd` is reported by spawns (a lower bound, shown "≥"). */
  reported: boolean;
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
  /**
   * Each project's `tokens` counts as the headline does (duplicates, repeated responses and runs once), so they sum
   * to it; `reported`: some of them are reported by spawns.
   */
  projects: {
    name: string;
    slug: string;
    rows: SessionRow[];
    sessions: number;
    tokens: number;
    reported: boolean;
  }[];
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

/**
 * Computes the index page from the manifest (the session files are not opened). Its totals count a duplicate copy
 * once, a conversation over several files once (its joined totals), and a run without its transcript once at what
 * its spawn reports (`archiveReported`), as `cctrail stats` does.
 */
export function indexView(m: SiteManifest): IndexView {
  let sessions = 0;
  let entries = 0;
  let tokens = 0;
  let compactions = 0;
  let sidechains = 0;
  let forks = 0;
  let duplicates = 0;
  const joinedTokens = conversationTokens(m);
  const projects = m.projects.map((p) => {
    let projectTokens = 0;
    const rows = p.sessions.map((s): SessionRow => {
      const t = totalTokens(s.summary.usage);
      const own = ownReported(s);
      sessions++;
      // A duplicate copy of a session is listed, and counted once in the totals (as `stats` does); a file of a
      // conversation over several files counts with its conversation, once (below).
      if (s.summary.duplicateOf) duplicates++;
      if (!s.summary.duplicateOf && !s.summary.conversation) {
        entries += s.summary.entries ?? 0;
        tokens += t;
        projectTokens += t;
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
        tokens: t + own.tokens,
        // rounded as core rounds dollars, so that the row says what the session page and `stats` say
        costUsd: s.summary.cost ? Math.round((s.summary.cost.usd + own.usd) * 1e9) / 1e9 : null,
        reported: own.runs > 0,
        errors: s.summary.diagnostics?.error ?? 0,
        duplicateOf: s.summary.duplicateOf,
        duplicateHref: sessionLinkById(m, '', s.summary.duplicateOf)?.href ?? null,
        copies: [],
        archived: archivedNote(s.summary),
        problem: s.loadErrors.length > 0 ? s.loadErrors.join('; ') : null,
      };
    });
    rows.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
    for (const s of p.sessions) projectTokens += joinedTokens.get(`${p.folder ?? ''}\u0000${s.id}`) ?? 0;
    const reported = archiveReported(m, p.sessions);
    return {
      name: p.name,
      slug: p.slug,
      rows: foldCopies(rows),
      sessions: rows.length,
      tokens: projectTokens + reported.tokens,
      reported: reported.runs > 0,
    };
  });
  const joined = conversationTotals(m);
  const reported = archiveReported(m);
  entries += joined.entries;
  tokens += joined.tokens + reported.tokens;
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
      tokensFigure(tokens, reported.runs, reported.tokens),
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

/**
 * The headline's tokens: "≥" when runs without a transcript count at what their spawns report (their last
 * responses: a lower bound), as the session page and `cctrail stats` say it.
 */
function tokensFigure(tokens: number, runs: number, reported: number): Figure {
  const all = `${num(tokens)} tokens (input, output and cache), duplicates counted once`;
  if (runs === 0) return { label: 'Tokens', value: compact(tokens), title: all };
  return {
    label: 'Tokens ≥',
    value: compact(tokens),
    title: `${all}; of them ≥ ${num(reported)} reported by the spawn result for ${plural(runs, 'sub-agent')} without a transcript (their last responses), each counted once`,
  };
}

/** The tokens of each conversation over several files, counted once, under its first file's project and id. */
function conversationTokens(m: SiteManifest): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of m.conversations ?? []) {
    const first = c.sessions[0];
    if (!first) continue;
    const key = `${first.project ?? ''}\u0000${first.id}`;
    out.set(key, (out.get(key) ?? 0) + totalTokens(c.totals.usage));
  }
  return out;
}
