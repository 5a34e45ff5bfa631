import { sessionTitle, totalTokens } from '@cctrail/core';
import { type Conversation, withReported } from '@cctrail/core/archive';
import { pageHref, sessionRoute } from '../html/links.js';
import type { SiteManifest } from '../site/site-model.js';
import { type SiteView, siteOf } from '../site/site-view.js';
import { conversationChartSvg } from './conversation-chart.js';
import { nameFiles } from './conversation-files.js';
import { conversationTimeline, type TimelineRow } from './conversation-timeline.js';

/**
 * Conversations over several files: the page of one conversation (its epochs, compactions and files on one
 * timeline, see `conversationTimeline`), the link from a session page to it, and index totals that count each
 * conversation once.
 */

/** Route of a conversation's page. */
export function conversationRoute(id: string): string {
  return `c/${id.replace(/[^A-Za-z0-9_-]/g, '_')}/`;
}

/** The page of one conversation. */
export interface ConversationPageView {
  kind: 'conversation';
  site: SiteView;
  route: string;
  title: string;
  conversation: Conversation;
  /** Its tokens, and what the spawns of its runs without a transcript report (each once). */
  tokens: number;
  /** Its cost in USD, its reported runs included; null for an archive written without cost. */
  costUsd: number | null;
  /** Some of `tokens` and `costUsd` is reported by spawns (a lower bound, shown "≥"). */
  reported: boolean;
  timeline: TimelineRow[];
  /** The joined timeline chart (SVG), null when no file has a time. */
  chart: string | null;
  /** Index › project › conversation. */
  crumbs: { index: string; project: { name: string; href: string } | null };
}

/**
 * The view model of a conversation's page.
 *
 * @param m The site manifest.
 * @param id The conversation's id.
 * @param route The page's route.
 */
export function conversationPageView(m: SiteManifest, id: string, route: string): ConversationPageView {
  const conversation = (m.conversations ?? []).find((c) => c.id === id);
  if (!conversation) throw new Error(`no conversation ${id} in the manifest`);
  const where = sessionsById(m);
  const names = nameFiles(conversation.sessions, (id) => {
    const at = where.get(id);
    return {
      id,
      title: at ? sessionTitle({ ...at.summary, id }) : id,
      entries: at?.summary.entries ?? 0,
      startedAt: at?.summary.startedAt ?? null,
    };
  });
  const timeline = conversationTimeline(conversation, (sessionId) => {
    const at = where.get(sessionId);
    const named = names.get(sessionId);
    return {
      sessionId,
      title: named?.name ?? sessionId,
      role: named?.role ?? 'original',
      href: at ? pageHref(route, sessionRoute(at.project, at.slug)) : null,
    };
  });
  const files = conversation.sessions.map((s) => ({ id: s.id, name: names.get(s.id)?.name ?? s.id }));
  const project = where.get(conversation.sessions[0]?.id ?? '');
  const projectName = m.projects.find((p) => p.slug === project?.project)?.name;
  return {
    kind: 'conversation',
    site: siteOf(m),
    route,
    title: conversation.title ?? conversation.id,
    conversation,
    tokens: withReportedTokens(conversation),
    costUsd: conversation.totals.cost
      ? withReported(conversation.totals.cost, conversation.totals.reportedBySpawn).usd
      : null,
    reported: conversation.totals.reportedBySpawn !== undefined,
    timeline,
    chart: conversationChartSvg(conversation, files)?.value ?? null,
    crumbs: {
      index: pageHref(route, ''),
      project:
        project && projectName
          ? { name: projectName, href: pageHref(route, '', `p-${project.project}`) }
          : null,
    },
  };
}

/** The links of a session's page: its conversation over several files, and the original it duplicates. */
export interface SessionLinks {
  conversation: { href: string; title: string; files: number } | null;
  duplicateOf: { href: string; title: string; id: string } | null;
}

/**
 * The links of a session's page: to its conversation (`conversationLink`) and to the original it duplicates.
 *
 * @param m The site manifest.
 * @param from The route of the session's page.
 * @param summary The session's index line.
 */
export function sessionLinks(
  m: SiteManifest,
  from: string,
  summary: { conversation?: string | undefined; duplicateOf: string | null },
): SessionLinks {
  return {
    conversation: conversationLink(m, from, summary.conversation),
    duplicateOf: sessionLinkById(m, from, summary.duplicateOf),
  };
}

/**
 * The link from a session's page to its conversation, or null when the session is a conversation of its own.
 *
 * @param m The site manifest.
 * @param from The route of the page that links.
 * @param conversationId The session's `conversation` (from its index line).
 */
function conversationLink(
  m: SiteManifest,
  from: string,
  conversationId: string | undefined,
): { href: string; title: string; files: number } | null {
  const conversation = conversationId
    ? (m.conversations ?? []).find((c) => c.id === conversationId)
    : undefined;
  if (!conversation) return null;
  return {
    href: pageHref(from, conversationRoute(conversation.id)),
    title: conversation.title ?? conversation.id,
    files: conversation.sessions.length,
  };
}

/**
 * Index totals with each conversation over several files counted once (its joined totals) instead of file by file.
 *
 * @param m The site manifest.
 * @returns What to add for the conversations; their sessions are skipped by `inConversation`.
 */
export function conversationTotals(m: SiteManifest): {
  entries: number;
  tokens: number;
  compactions: number;
  sidechains: number;
  forks: number;
} {
  const out = { entries: 0, tokens: 0, compactions: 0, sidechains: 0, forks: 0 };
  for (const c of m.conversations ?? []) {
    out.entries += c.totals.entries;
    out.tokens += totalTokens(c.totals.usage);
    out.compactions += c.totals.compactions;
    out.sidechains += c.totals.sidechains;
    out.forks += c.totals.forks;
  }
  return out;
}

/** Sessions of the site by id (a conversation's files share a project; ids are unique there). */
function sessionsById(m: SiteManifest) {
  type At = {
    project: string;
    slug: string;
    summary: SiteManifest['projects'][number]['sessions'][number]['summary'];
  };
  const out = new Map<string, At>();
  for (const p of m.projects)
    for (const s of p.sessions)
      if (!out.has(s.id)) out.set(s.id, { project: p.slug, slug: s.slug, summary: s.summary });
  return out;
}

/**
 * The link to a session of the site by its id (the original a duplicate copies), or null when it is not in the
 * report.
 *
 * @param m The site manifest.
 * @param from The route of the page that links.
 * @param id The session's id.
 */
export function sessionLinkById(
  m: SiteManifest,
  from: string,
  id: string | null | undefined,
): { href: string; title: string; id: string } | null {
  const at = id ? sessionsById(m).get(id) : undefined;
  if (!id || !at) return null;
  return {
    href: pageHref(from, sessionRoute(at.project, at.slug)),
    title: sessionTitle({ ...at.summary, id }),
    id,
  };
}

/** A conversation over several files as the index lists it. */
export interface ConversationListing {
  href: string;
  title: string;
  project: string | null;
  files: number;
  startedAt: string | null;
  entries: number;
  /** Its tokens, its runs without a transcript at what their spawns report. */
  tokens: number;
  /** Some of `tokens` is reported by spawns (shown "≥"). */
  reported: boolean;
}

/** The conversations over several files, newest first, with links from the index. */
export function conversationListing(m: SiteManifest): ConversationListing[] {
  return (m.conversations ?? [])
    .filter((c) => c.sessions.length > 1)
    .map((c) => ({
      href: pageHref('', conversationRoute(c.id)),
      title: c.title ?? c.id,
      project: m.projects.find((p) => p.sessions.some((s) => s.id === c.id))?.name ?? null,
      files: c.sessions.length,
      startedAt: c.startedAt,
      entries: c.totals.entries,
      tokens: withReportedTokens(c),
      reported: c.totals.reportedBySpawn !== undefined,
    }))
    .sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
}

/** A conversation's tokens: its API responses', and what the spawns of its runs without a transcript report. */
function withReportedTokens(c: Conversation): number {
  return totalTokens(c.totals.usage) + (c.totals.reportedBySpawn?.tokens ?? 0);
}
