import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AgentTypeStats, aggregateAgents, type LocatedRun } from './agents.js';
import { formatSize, html, type SafeHtml, trusted } from './html.js';
import { branchRoute, entryAnchor, pageHref, sessionRoute, sidechainRoute } from './links.js';
import { loadSessionCached } from '../build/load.js';
import { agentSlug, type ManifestSession, type SiteManifest } from '../build/manifest.js';
import { type MermaidNode, sessionMermaid } from './mermaid.js';
import type { Diagnostic, Entry, Session } from './model.js';
import { PAGE_SIZE, paginate } from './paginate.js';
import { renderTranscript, type TranscriptLinks } from './render.js';
import { type RereadsAfterCompaction, rereadsAfterCompactions } from './reread.js';
import { timelineSeries, timelineSvg } from './timeline.js';
import {
  activeEntries,
  branchEntries,
  childrenOf,
  sidechainEntries,
  transcriptContext,
} from './transcript.js';

/**
 * What each page shows, computed from the manifest and (lazily) the session file. Heavy parts are cached as
 * HTML fragments in the cache folder, keyed by the session's cache key, so an unchanged session is not read
 * again on a rebuild.
 */

/** Most diagnostics listed on a session page. */
export const DIAGNOSTICS_SHOWN = 200;

/** Files of a cached fragment: its transcript HTML, and the rest as JSON (written last: it marks completion). */
function fragmentFiles(m: SiteManifest, key: string): { html: string; meta: string } | null {
  if (!m.cacheDir) return null;
  const dir = join(m.cacheDir, 'fragments');
  return { html: join(dir, `${key}.html`), meta: join(dir, `${key}.json`) };
}

/** True when the fragment of `key` is in the cache. */
export function hasFragment(m: SiteManifest, key: string): boolean {
  const files = fragmentFiles(m, key);
  return files !== null && existsSync(files.meta) && existsSync(files.html);
}

/**
 * Reads a fragment from the cache, or computes and stores it. The transcript HTML stays on disk: pages put
 * `fragmentMarker(key)` where it goes, and `assembleSite` fills it in.
 */
function cachedFragment(m: SiteManifest, key: string, compute: () => RenderedFragment): TranscriptFragment {
  const files = fragmentFiles(m, key);
  if (!files) throw new Error('the report needs a cache folder for its fragments');
  try {
    if (!existsSync(files.html)) throw new Error('no transcript');
    return { ...(JSON.parse(readFileSync(files.meta, 'utf8')) as Omit<TranscriptFragment, 'key'>), key };
  } catch {
    const { transcript, ...meta } = compute();
    mkdirSync(dirname(files.html), { recursive: true });
    writeFileSync(files.html, transcript);
    writeFileSync(files.meta, JSON.stringify(meta));
    return { ...meta, key };
  }
}

/** The transcript HTML of a cached fragment. */
export function fragmentHtml(m: SiteManifest, key: string): string {
  const files = fragmentFiles(m, key);
  return files ? readFileSync(files.html, 'utf8') : '';
}

/** Cache key of a transcript page. */
export function fragmentKey(
  projectSlug: string,
  s: ManifestSession,
  scope: TranscriptScope,
  page: number,
): string {
  const scopeKey =
    scope.kind === 'main' ? 'main' : scope.kind === 'sidechain' ? `sc-${scope.slug}` : `br-${scope.index}`;
  return `${s.key}-${projectSlug}-${s.slug}-${scopeKey}-${page}`;
}

/** Per-session lookups shared by the pages of one session (a session is rendered page after page). */
interface SessionMemo {
  locate?: (e: Entry) => { route: string; anchor: string } | null;
  scopes: Map<string, { entries: Entry[]; ctx: ReturnType<typeof transcriptContext> }>;
}
const memos = new WeakMap<Session, SessionMemo>();
function memoOf(session: Session): SessionMemo {
  let m = memos.get(session);
  if (!m) {
    m = { scopes: new Map() };
    memos.set(session, m);
  }
  return m;
}

/** Where every entry of a session is shown: route and anchor. */
function entryLocator(session: Session, project: string, slug: string, sidechainSlugs: Map<string, string>) {
  const active = new Map<string, number>();
  for (const [i, e] of activeEntries(session).entries()) active.set(e.uuid, i);
  const perSidechain = new Map<string, number>();
  const sideIndex = new Map<string, number>();
  for (const e of session.entries) {
    if (!e.sidechain) continue;
    const n = perSidechain.get(e.sidechain) ?? 0;
    sideIndex.set(e.uuid, n);
    perSidechain.set(e.sidechain, n + 1);
  }
  // Entry → (branch, position in the branch), for links to the right page of a long branch.
  const inBranch = new Map<string, { branch: number; index: number }>();
  const children = childrenOf(session.entries);
  session.branches.forEach((b, i) => {
    branchEntries(session, b, children).forEach((e, index) => {
      if (!inBranch.has(e.uuid)) inBranch.set(e.uuid, { branch: i, index });
    });
  });
  return (e: Entry): { route: string; anchor: string } | null => {
    const anchor = entryAnchor(e.uuid);
    const ai = active.get(e.uuid);
    if (ai !== undefined)
      return { route: sessionRoute(project, slug, Math.floor(ai / PAGE_SIZE) + 1), anchor };
    if (e.sidechain) {
      const sc = sidechainSlugs.get(e.sidechain);
      const i = sideIndex.get(e.uuid) ?? 0;
      return sc ? { route: sidechainRoute(project, slug, sc, Math.floor(i / PAGE_SIZE) + 1), anchor } : null;
    }
    const b = inBranch.get(e.uuid);
    if (!b) return null;
    const page = Math.floor(b.index / PAGE_SIZE) + 1;
    const base = branchRoute(project, slug, b.branch);
    return { route: page > 1 ? `${base}p${page}/` : base, anchor };
  };
}

/** Heavy, cacheable part of a transcript page. */
export interface TranscriptFragment {
  /** Cache key: the transcript HTML is `fragmentHtml(m, key)`, put in the page by `fragmentMarker(key)`. */
  key: string;
  graph: { text: string; nodes: MermaidNode[]; notes: string[] } | null;
  timeline: string | null;
  calls: number;
  rereads: RereadsAfterCompaction[];
  diagnostics: Diagnostic[];
  diagnosticsTotal: number;
  errors: string[];
}

/** A fragment as computed, with its transcript HTML. */
type RenderedFragment = Omit<TranscriptFragment, 'key'> & { transcript: string };

/** Which transcript a page shows. */
export type TranscriptScope =
  | { kind: 'main' }
  | { kind: 'sidechain'; slug: string }
  | { kind: 'branch'; index: number };

/** Computes (or reads from the cache) the heavy part of a transcript page. */
export function transcriptFragment(
  m: SiteManifest,
  projectSlug: string,
  s: ManifestSession,
  scope: TranscriptScope,
  page: number,
  route: string,
): TranscriptFragment {
  const scopeKey =
    scope.kind === 'main' ? 'main' : scope.kind === 'sidechain' ? `sc-${scope.slug}` : `br-${scope.index}`;
  return cachedFragment(m, fragmentKey(projectSlug, s, scope, page), () => {
    const loaded = loadSessionCached(s.file, s.key);
    if (!loaded.ok)
      return {
        transcript: '',
        graph: null,
        timeline: null,
        calls: 0,
        rereads: [],
        diagnostics: [],
        diagnosticsTotal: 0,
        errors: loaded.errors,
      };
    const session = loaded.value;
    const scSlugs = new Map(s.sidechains.map((c) => [c.id, c.slug]));
    const memo = memoOf(session);
    memo.locate ??= entryLocator(session, projectSlug, s.slug, scSlugs);
    const locate = memo.locate;
    const href = (target: { route: string; anchor: string } | null): string | null =>
      target ? pageHref(route, target.route, target.anchor) : null;
    const links: TranscriptLinks = {
      sidechain: (id) => {
        const slug = scSlugs.get(id);
        return slug ? pageHref(route, sidechainRoute(projectSlug, s.slug, slug)) : null;
      },
      branch: (index) => pageHref(route, branchRoute(projectSlug, s.slug, index)),
    };
    let scoped = memo.scopes.get(scopeKey);
    if (!scoped) {
      let entries: Entry[];
      if (scope.kind === 'main') entries = activeEntries(session);
      else if (scope.kind === 'sidechain') {
        const sc = s.sidechains.find((c) => c.slug === scope.slug);
        entries = sc ? sidechainEntries(session, sc.id) : [];
      } else {
        const b = session.branches[scope.index];
        entries = b ? branchEntries(session, b) : [];
      }
      scoped = { entries, ctx: transcriptContext(session, entries) };
      memo.scopes.set(scopeKey, scoped);
    }
    const { entries, ctx } = scoped;
    const p = paginate(entries.length)[page - 1] ?? { start: 0, end: 0 };
    const transcript = renderTranscript(entries.slice(p.start, p.end), ctx, links).value;
    let graph: TranscriptFragment['graph'] = null;
    let timeline: string | null = null;
    let calls = 0;
    let rereads: RereadsAfterCompaction[] = [];
    if (scope.kind === 'main' && page === 1) {
      const g = sessionMermaid(session, {
        entryHref: (e) => href(locate(e)),
        sidechainHref: links.sidechain,
        branchHref: links.branch,
      });
      graph = { text: g.text, nodes: g.nodes, notes: g.notes };
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
      diagnostics:
        scope.kind === 'main' && page === 1
          ? session.diagnostics.slice(0, DIAGNOSTICS_SHOWN).map((d) => ({ ...d, raw: d.raw?.slice(0, 500) }))
          : [],
      diagnosticsTotal: session.diagnostics.length,
      errors: [],
    };
  });
}

/** A link of a pager; `href` null for the current page or a gap. */
export interface PagerLink {
  label: string;
  href: string | null;
  current: boolean;
}

/** Links of a pager for `count` pages, where `routeOf(n)` is the route of page n. */
export function pagerLinks(
  from: string,
  current: number,
  count: number,
  routeOf: (n: number) => string,
): PagerLink[] {
  if (count <= 1) return [];
  const out: PagerLink[] = [];
  for (let p = 1; p <= count; p++) {
    if (p === 1 || p === count || Math.abs(p - current) <= 2) {
      out.push({
        label: String(p),
        href: p === current ? null : pageHref(from, routeOf(p)),
        current: p === current,
      });
    } else if (out[out.length - 1]?.label !== '…') out.push({ label: '…', href: null, current: false });
  }
  return out;
}

/** Every agent run of the archive with where it happened. */
export function archiveRuns(
  m: SiteManifest,
): (LocatedRun & { project: string; session: ManifestSession; route: string })[] {
  return m.projects.flatMap((p) =>
    p.sessions.flatMap((s) =>
      s.sidechains.map((sc) => ({
        run: sc,
        sessionKey: `${p.slug}/${s.slug}`,
        project: p.name,
        session: s,
        route: sidechainRoute(p.slug, s.slug, sc.slug),
      })),
    ),
  );
}

/** Agent type statistics over the archive, with the route of each type's page. */
export function agentTable(m: SiteManifest): (AgentTypeStats & { route: string })[] {
  return aggregateAgents(archiveRuns(m)).map((a) => ({
    ...a,
    route: `agents/${agentSlug(m, a.agentType) ?? 'x'}/`,
  }));
}

/** A figure of a page header. */
export interface Figure {
  label: string;
  value: string;
  /** A smaller second line (e.g. the time of a date). */
  sub?: string;
  title?: string;
}

/** `1 session`, `2 sessions`: a count with its noun (plural by adding `s` unless given). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** `1,234`. */
export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString('en-US');
}

/** `1.2M`, `34k`. */
export function compact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return n.toLocaleString('en-US');
}

/** Renders a list of re-reads as an HTML table (for the session page). */
export function rereadTable(rereads: readonly RereadsAfterCompaction[]): SafeHtml {
  const rows = rereads.filter((r) => r.files.length > 0);
  if (rows.length === 0) return trusted('');
  return html`${rows.map(
    (
      r,
    ) => html`<h3>After compaction into epoch ${r.epoch}: ${plural(r.files.length, 'file')} read again, ≈${num(r.tokens)} tokens</h3>
<div class="table-wrap"><table class="data"><thead><tr><th scope="col">File</th><th scope="col" class="n">Reads before</th><th scope="col" class="n">Reads after</th><th scope="col" class="n">≈ Tokens</th></tr></thead><tbody>${r.files.map(
      (f) =>
        html`<tr><td class="path">${f.file}</td><td class="n">${f.readsBefore}</td><td class="n">${f.readsAfter}</td><td class="n">${num(f.tokens)}</td></tr>`,
    )}</tbody></table></div>`,
  )}`;
}

/** Size of text for display. */
export const size = formatSize;

/** One row of the index's session table. */
export interface SessionRow {
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
      const u = s.summary.usage;
      const t = u ? u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens : 0;
      sessions++;
      entries += s.summary.entries ?? 0;
      if (!s.summary.duplicateOf) tokens += t;
      compactions += s.summary.compactions ?? 0;
      sidechains += s.summary.sidechains ?? 0;
      forks += s.summary.forks ?? 0;
      return {
        title: sessionTitleOf(s),
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

function sessionTitleOf(s: ManifestSession): string {
  const t = (s.summary.title ?? s.summary.firstPrompt ?? '').replace(/\s+/g, ' ').trim();
  if (t === '') return s.id;
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

/** `2026-01-02 13:45` (UTC) or an em dash. */
export function when(iso: string | null): string {
  return iso ? iso.replace('T', ' ').slice(0, 16) : '—';
}

/** Header figures of a session page. */
export function sessionFigures(s: ManifestSession): Figure[] {
  const u = s.summary.usage;
  const tokens = u ? u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens : 0;
  return [
    {
      label: 'Started (UTC)',
      value: s.summary.startedAt?.slice(0, 10) ?? '—',
      sub: s.summary.startedAt?.slice(11, 16) ?? '',
    },
    {
      label: 'Duration',
      value: s.summary.durationMs === null ? '—' : formatDurationShort(s.summary.durationMs),
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
      value: compact(tokens),
      title: u
        ? `input ${num(u.inputTokens)} · output ${num(u.outputTokens)} · cache write ${num(u.cacheCreationInputTokens)} · cache read ${num(u.cacheReadInputTokens)} · ${num(u.responses)} responses`
        : '',
    },
  ];
}

function formatDurationShort(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}
