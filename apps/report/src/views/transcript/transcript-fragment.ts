import {
  activeEntries,
  branchEntries,
  childrenOf,
  type RereadsAfterCompaction,
  rereadsAfterCompactions,
} from '@cctrail/core';
import { spawnExchange } from '../agents/spawn-exchange.js';
import { timelineSeries } from '../charts/timeline.js';
import { timelineSvg } from '../charts/timeline-svg.js';
import { type MermaidGraph, sessionMermaid } from '../flowchart/mermaid.js';
import { pageHref, sidechainRoute } from '../html/links.js';
import type { Diagnostic, Entry, Session } from '../model.js';
import { branchLayout, branchPlace } from '../site/branch-places.js';
import { findSidechain, type PageProps, sidechainById } from '../site/routes.js';
import type { ManifestSession } from '../site/site-model.js';
import { renderAlternatives } from './alternatives.js';
import { type EntryPlace, entryLocator } from './entry-locator.js';
import { type Page, transcriptPages } from './paginate.js';
import { outlinePrompts, renderOutline } from './prompt-outline.js';
import type { TranscriptLinks } from './render.js';
import { renderTranscript } from './render-card.js';
import { transcriptContext } from './transcript.js';

/**
 * The heavy part of a transcript page, computed from the session: the transcript HTML of the page, and on a
 * session's first page its flowchart, timeline, re-reads and diagnostics. The build computes it once per
 * session version and keeps it in its cache (`build/fragments.ts`); the page's view model holds the rest.
 */

/** Most diagnostics listed on a session page. */
export const DIAGNOSTICS_SHOWN = 200;

/** What a fragment holds besides its transcript HTML. */
export interface FragmentMeta {
  graph: Pick<MermaidGraph, 'text' | 'nodes' | 'notes' | 'sections'> | null;
  timeline: string | null;
  calls: number;
  rereads: RereadsAfterCompaction[];
  diagnostics: Diagnostic[];
  diagnosticsTotal: number;
  errors: string[];
  /** On a sidechain's page: the link to the call that spawned it, in its parent's transcript. */
  spawnHref?: string | null;
  /** On an abandoned branch's page: the link to its fork point in the conversation. */
  forkHref?: string | null;
}

/** A fragment with its cache key (its transcript HTML stays in the cache until its page is rendered). */
export interface TranscriptFragment extends FragmentMeta {
  key: string;
}

/** A fragment as computed, with its transcript HTML. */
export type RenderedFragment = FragmentMeta & { transcript: string };

/** Which transcript a page shows. */
export type TranscriptScope =
  | { kind: 'main' }
  | { kind: 'sidechain'; slug: string }
  | { kind: 'branch'; index: number }
  /** A session's pages of alternatives: its short branches together. */
  | { kind: 'alternatives' };

/** The transcript scope and page of a route's page, or null for a page without a transcript. */
export function scopeOf(p: PageProps): { scope: TranscriptScope; page: number } | null {
  if (p.kind === 'session') return { scope: { kind: 'main' }, page: p.page };
  if (p.kind === 'sidechain') return { scope: { kind: 'sidechain', slug: p.sidechain }, page: p.page };
  if (p.kind === 'branch') return { scope: { kind: 'branch', index: p.branch }, page: p.page };
  if (p.kind === 'branches') return { scope: { kind: 'alternatives' }, page: p.page };
  return null;
}

function scopeKeyOf(scope: TranscriptScope): string {
  return scope.kind === 'main'
    ? 'main'
    : scope.kind === 'sidechain'
      ? `sc-${scope.slug}`
      : scope.kind === 'branch'
        ? `br-${scope.index}`
        : 'alt';
}

/** Cache key of a transcript page: the session's version, its slugs, the scope and the page. */
export function fragmentKey(
  projectSlug: string,
  s: ManifestSession,
  scope: TranscriptScope,
  page: number,
): string {
  return `${s.key}-${projectSlug}-${s.slug}-${scopeKeyOf(scope)}-${page}`;
}

/** Per-session lookups shared by the pages of one session (a session is rendered page after page). */
interface SessionMemo {
  locate?: (e: Entry) => EntryPlace | null;
  /** The scope rendered last (pages of one scope are rendered one after the other). */
  scope?: { key: string; entries: Entry[]; pages: Page[]; ctx: ReturnType<typeof transcriptContext> };
  /** Entries of each sidechain, grouped once. */
  bySidechain?: Map<string, Entry[]>;
  children?: ReturnType<typeof childrenOf>;
  byUuid?: Map<string, Entry>;
  /** Uuid of the entry that spawned each sidechain, by sidechain id. */
  spawnOf?: Map<string, string>;
}
const memos = new WeakMap<Session, SessionMemo>();
function memoOf(session: Session): SessionMemo {
  let m = memos.get(session);
  if (!m) {
    m = {};
    memos.set(session, m);
  }
  return m;
}

/** Where each entry of a session is shown (`entryLocator`, memoized per session). */
export function sessionLocator(
  session: Session,
  projectSlug: string,
  s: ManifestSession,
): (e: Entry) => EntryPlace | null {
  const memo = memoOf(session);
  memo.locate ??= entryLocator(
    session,
    projectSlug,
    s.slug,
    new Map(s.sidechains.map((c) => [c.id, c.slug])),
    (index) => branchPlace(projectSlug, s, index).route,
  );
  return memo.locate;
}

function findSidechainOrNull(s: ManifestSession, slug: string) {
  try {
    return findSidechain(s, slug);
  } catch {
    return undefined;
  }
}

/** Entries of every sidechain of a session, in file order (one pass, however many sidechains). */
function sidechainGroups(session: Session, memo: SessionMemo): Map<string, Entry[]> {
  if (memo.bySidechain) return memo.bySidechain;
  const groups = new Map<string, Entry[]>();
  for (const e of session.entries) {
    if (e.sidechain === null) continue;
    const list = groups.get(e.sidechain) ?? [];
    list.push(e);
    groups.set(e.sidechain, list);
  }
  memo.bySidechain = groups;
  return groups;
}

/** The entries a scope shows, with their rendering lookups (memoized for the scope rendered last). */
function scoped(session: Session, s: ManifestSession, scope: TranscriptScope) {
  const memo = memoOf(session);
  const key = scopeKeyOf(scope);
  if (memo.scope?.key === key) return memo.scope;
  let entries: Entry[];
  if (scope.kind === 'main') entries = activeEntries(session);
  else if (scope.kind === 'sidechain') {
    const sc = s.sidechains.length > 0 ? findSidechainOrNull(s, scope.slug) : undefined;
    entries = sc ? (sidechainGroups(session, memo).get(sc.id) ?? []) : [];
  } else entries = scope.kind === 'branch' ? entriesOfBranch(session, memo, scope.index) : [];
  memo.scope = { key, entries, pages: transcriptPages(entries), ctx: transcriptContext(session, entries) };
  return memo.scope;
}

/** The entries an abandoned branch shows. */
function entriesOfBranch(session: Session, memo: SessionMemo, index: number): Entry[] {
  const b = session.branches[index];
  memo.children ??= childrenOf(session.entries);
  return b ? branchEntries(session, b, memo.children) : [];
}

/** The entry of a session with a uuid (the map is built once per session). */
function entryByUuid(session: Session, uuid: string): Entry | undefined {
  const memo = memoOf(session);
  memo.byUuid ??= new Map(session.entries.map((e) => [e.uuid, e]));
  return memo.byUuid.get(uuid);
}

/** The fragment of a session that could not be loaded: no transcript, and the reasons. */
export function failedFragment(errors: string[]): RenderedFragment {
  return {
    transcript: '',
    graph: null,
    timeline: null,
    calls: 0,
    rereads: [],
    diagnostics: [],
    diagnosticsTotal: 0,
    errors,
  };
}

/**
 * Computes the fragment of one transcript page.
 *
 * @param session The loaded session.
 * @param projectSlug Its project's slug.
 * @param s The session in the site model (slugs, sidechain slugs).
 * @param scope Which transcript.
 * @param page Its page (1-based).
 * @param route The page's route, which links are relative to.
 * @param locate Where each entry is shown, when the session holds only some of its entries (read page by page).
 */
export function renderFragment(
  session: Session,
  projectSlug: string,
  s: ManifestSession,
  scope: TranscriptScope,
  page: number,
  route: string,
  locate = sessionLocator(session, projectSlug, s),
): RenderedFragment {
  const href = (target: EntryPlace | null): string | null =>
    target ? pageHref(route, target.route, target.anchor) : null;
  const links: TranscriptLinks = {
    sidechain: (id) => {
      const slug = sidechainById(s, id)?.slug;
      return slug ? pageHref(route, sidechainRoute(projectSlug, s.slug, slug)) : null;
    },
    branch: (index) => {
      const place = branchPlace(projectSlug, s, index);
      return pageHref(route, place.route, place.anchor ?? undefined);
    },
  };
  const forkOf = (index: number): string | null => {
    const point = session.branches[index]?.branchPoint;
    const entry = point ? entryByUuid(session, point) : undefined;
    return entry ? href(locate(entry)) : null;
  };
  const { entries, pages, ctx } = scoped(session, s, scope);
  const p = pages[page - 1] ?? { start: 0, end: 0 };
  const first = scope.kind === 'main' && page === 1;
  const outline = first ? renderOutline(outlinePrompts(entries, (e) => href(locate(e)))) : undefined;
  let transcript: string;
  if (scope.kind === 'alternatives') {
    const memo = memoOf(session);
    const indices = branchLayout(s.branches).pages[page - 1] ?? [];
    const entriesOf = (index: number) => entriesOfBranch(session, memo, index);
    transcript = renderAlternatives(session, indices, entriesOf, forkOf, links).value;
  } else transcript = renderTranscript(entries.slice(p.start, p.end), ctx, links, outline).value;
  let spawn: string | null = null;
  if (scope.kind === 'sidechain') {
    const id = findSidechainOrNull(s, scope.slug)?.id;
    const memo = memoOf(session);
    memo.spawnOf ??= new Map(session.sidechains.flatMap((c) => (c.spawn ? [[c.id, c.spawn.entryUuid]] : [])));
    const at = id ? memo.spawnOf.get(id) : undefined;
    const entry = at ? entryByUuid(session, at) : undefined;
    spawn = entry ? href(locate(entry)) : null;
    const sc = id && entries.length === 0 ? session.sidechains.find((c) => c.id === id) : undefined;
    if (sc) transcript = spawnExchange(session, sc).value;
  }
  const fork = scope.kind === 'branch' ? forkOf(scope.index) : null;
  let graph: FragmentMeta['graph'] = null;
  let timeline: string | null = null;
  let calls = 0;
  let rereads: RereadsAfterCompaction[] = [];
  if (first && session.entries.length > 0) {
    const g = sessionMermaid(session, {
      entryHref: (e) => href(locate(e)),
      sidechainHref: links.sidechain,
      branchHref: links.branch,
    });
    graph = { text: g.text, nodes: g.nodes, notes: g.notes, sections: g.sections };
  }
  if (first) {
    rereads = rereadsAfterCompactions(session);
    const series = timelineSeries(session, rereads);
    calls = series.calls.length;
    timeline = series.calls.length > 0 || series.markers.length > 0 ? timelineSvg(series).value : null;
  }
  return {
    transcript,
    graph,
    timeline,
    calls,
    rereads,
    diagnostics: first
      ? session.diagnostics.slice(0, DIAGNOSTICS_SHOWN).map((d) => ({ ...d, raw: d.raw?.slice(0, 500) }))
      : [],
    diagnosticsTotal: session.diagnostics.length,
    errors: [],
    spawnHref: spawn,
    forkHref: fork,
  };
}
