import { spawnExchange } from '../views/agents/spawn-exchange.js';
import { html } from '../views/html/html.js';
import { pageHref, sidechainRoute } from '../views/html/links.js';
import type { Entry, Session } from '../views/model.js';
import { branchPlace } from '../views/site/branch-places.js';
import { sessionRoutes } from '../views/site/routes.js';
import type { CachedPart } from '../views/site/session-part.js';
import type { ManifestSession } from '../views/site/site-model.js';
import type { EntryPlace } from '../views/transcript/entry-locator.js';
import type { Page } from '../views/transcript/paginate.js';
import type { TranscriptLinks } from '../views/transcript/render.js';
import { renderTranscript } from '../views/transcript/render-card.js';
import { transcriptContext } from '../views/transcript/transcript.js';
import {
  fragmentKey,
  type RenderedFragment,
  renderFragment,
  scopeOf,
} from '../views/transcript/transcript-fragment.js';
import { hasFragment, keepFragment, storeFragment } from './fragments.js';
import { checkSession, fileError } from './load.js';
import { cachePart, keepPart, type ListedSession, manifestSession } from './manifest.js';
import { PackWriter } from './packs.js';
import { pagedLocator, pagedPages, pagedPart } from './paged-part.js';
import { indexPagedEntries, pagedItems, readPagedHeader } from './paged-read.js';
import { keepSearchPiece, searchPieceKey, storeSearchPiece } from './search-pieces.js';

/**
 * A session whose file is too large to read whole, rendered one transcript page at a time (#31: a session of a
 * million lines). Its pages show every entry, as a loaded session's do; what needs the whole session at once is
 * left out: the first page's outline of prompts, flowchart, timeline and re-reads, and the session's entries in
 * the search index. A page's tool calls are paired with results on the pages beside it, as far as a loaded
 * session's are in practice (a result is rarely more than a page away from its call).
 */

/** A session to read page by page (`SessionJob`): its place in the archive, and its part when cached. */
interface PagedJob extends ListedSession {
  part: CachedPart | null;
}

/** What reading it gave (`SessionDone`): its part when it was computed, and the fragments rendered. */
interface PagedDone {
  file: string;
  part: CachedPart | null;
  pages: number;
}

/** Said on the first page of such a session: what it leaves out, and why. */
const PAGED_NOTE = html`<p class="muted small">This session is too large to be read at once: its pages were read one at a time. Every entry is shown; the outline of prompts, the flowchart and the timeline are left out, and its entries are not in the search index.</p>`;

/** A page to render: its route and cache key. */
interface Wanted {
  route: string;
  key: string;
}

/**
 * The pages of one transcript, filled entry by entry: each page is rendered once the next is complete, with the
 * pages beside it as the context that pairs tool calls with their results.
 */
class ScopeWindow {
  #p = 0;
  #count = 0;
  #current: Entry[] = [];
  #ready: { number: number; entries: Entry[] } | null = null;
  #before: Entry[] = [];

  constructor(
    readonly pages: readonly Page[],
    readonly render: (page: number, entries: Entry[], around: Entry[]) => void,
  ) {}

  add(e: Entry): void {
    this.#current.push(e);
    this.#count++;
    if (this.#p < this.pages.length && this.#count === this.pages[this.#p]!.end) this.#complete();
  }

  /** Renders the pages left (the last one; the one page of a transcript without entries). */
  finish(): void {
    while (this.#p < this.pages.length) this.#complete();
    this.#emit([]);
  }

  #complete(): void {
    const entries = this.#current;
    this.#current = [];
    this.#emit(entries);
    this.#ready = { number: this.pages[this.#p]!.number, entries };
    this.#p++;
  }

  #emit(next: Entry[]): void {
    const ready = this.#ready;
    if (!ready) return;
    this.render(ready.number, ready.entries, [...this.#before, ...ready.entries, ...next]);
    this.#before = ready.entries;
    this.#ready = null;
  }
}

/** The links of a transcript page at `route`. */
function linksAt(projectSlug: string, s: ManifestSession, route: string): TranscriptLinks {
  return {
    sidechain: (id) => {
      const slug = s.sidechains.find((c) => c.id === id)?.slug;
      return slug ? pageHref(route, sidechainRoute(projectSlug, s.slug, slug)) : null;
    },
    branch: (index) => {
      const place = branchPlace(projectSlug, s, index);
      return pageHref(route, place.route, place.anchor ?? undefined);
    },
  };
}

/** A page's fragment, its transcript given (no flowchart, timeline or re-reads: they need every entry). */
function fragmentOf(
  transcript: string,
  diagnostics: { shown: Session['diagnostics'] | null; total: number },
  spawnHref: string | null,
): RenderedFragment {
  return {
    transcript,
    graph: null,
    timeline: null,
    calls: 0,
    rereads: [],
    diagnostics: diagnostics.shown?.map((d) => ({ ...d, raw: d.raw?.slice(0, 500) })) ?? [],
    diagnosticsTotal: diagnostics.total,
    errors: [],
    spawnHref,
    forkHref: null,
  };
}

/** True when every transcript page of a session whose part is cached is cached too: its file need not be read. */
function allCached(job: PagedJob, part: CachedPart, cacheDir: string): boolean {
  const s = manifestSession(job, part);
  return sessionRoutes(job.projectSlug, s).every((r) => {
    const at = scopeOf(r.props);
    return !at || hasFragment(cacheDir, fragmentKey(job.projectSlug, s, at.scope, at.page));
  });
}

/**
 * Reads a session file too large to read whole, page by page, and caches what its pages need (its part, the
 * fragments of its pages not cached yet), as `processSession` does for a session it loads.
 *
 * @returns What was done, or why the file could not be read (the build then shows the reasons, as for any file).
 */
export async function processPagedSession(
  job: PagedJob,
  cacheDir: string,
): Promise<PagedDone | { errors: string[] }> {
  if (job.part && allCached(job, job.part, cacheDir)) return { file: job.file, part: null, pages: 0 };
  const pack = new PackWriter(cacheDir, job.key);
  try {
    const done = await cachePagedSession(job, pack);
    if ('errors' in done) pack.abort();
    else pack.commit();
    return done;
  } catch (error) {
    pack.abort();
    throw error;
  }
}

/** Reads the session page by page and puts into its pack what is not there yet. */
async function cachePagedSession(job: PagedJob, pack: PackWriter): Promise<PagedDone | { errors: string[] }> {
  const read = await readPagedHeader(job.file);
  if ('errors' in read) return read;
  const session = read.session;
  const invalid = checkSession(session);
  if (invalid.length > 0) return { errors: invalid };
  const index = await indexPagedEntries(job.file, session);
  if ('errors' in index) return index;
  const pages = pagedPages(index);
  let part: CachedPart | null = job.part;
  let computed: CachedPart | null = null;
  if (part) keepPart(pack, job.key);
  else {
    part = pagedPart(session, index, pages);
    cachePart(pack, job.key, part);
    computed = part;
  }
  const s = manifestSession(job, part);
  const locate = pagedLocator(session, index, pages, job.projectSlug, s);
  const href = (route: string, e: Entry | undefined) => {
    const target: EntryPlace | null = e ? locate(e) : null;
    return target ? pageHref(route, target.route, target.anchor) : null;
  };
  const byUuid = new Map(session.entries.map((e) => [e.uuid, e]));
  const main = new Map<number, Wanted>();
  const sidechains = new Map<string, Map<number, Wanted>>();
  let rendered = 0;
  const store = (key: string, fragment: RenderedFragment) => {
    // The transcript keeps its images: the file is not read whole to find them (`cutPayloads`).
    storeFragment(pack, key, fragment);
    rendered++;
  };
  for (const r of sessionRoutes(job.projectSlug, s)) {
    const at = scopeOf(r.props);
    if (!at) continue;
    const key = fragmentKey(job.projectSlug, s, at.scope, at.page);
    if (keepFragment(pack, key)) continue;
    const wanted = { route: r.route, key };
    if (at.scope.kind === 'main') main.set(at.page, wanted);
    else if (at.scope.kind === 'sidechain') {
      const sc = s.sidechains.find((c) => c.slug === (at.scope as { slug: string }).slug);
      if (!sc) continue;
      const list = sidechains.get(sc.id) ?? new Map<number, Wanted>();
      sidechains.set(sc.id, list.set(at.page, wanted));
    }
    // Abandoned branches are held whole (they are off the active path): rendered as for a loaded session.
    else store(key, renderFragment(session, job.projectSlug, s, at.scope, at.page, r.route, locate));
  }
  const windows = new Map<string | null, ScopeWindow>();
  const windowOf = (sidechain: string | null, wanted: Map<number, Wanted>, list: readonly Page[]) =>
    new ScopeWindow(list, (page, entries, around) => {
      const w = wanted.get(page);
      if (!w) return;
      const first = sidechain === null && page === 1;
      const transcript =
        (first ? PAGED_NOTE.value : '') +
        renderTranscript(entries, transcriptContext(session, around), linksAt(job.projectSlug, s, w.route))
          .value;
      const spawn = sidechain === null ? undefined : session.sidechains.find((c) => c.id === sidechain);
      const diagnostics = { shown: first ? session.diagnostics : null, total: read.diagnosticsTotal };
      const spawnAt = spawn ? href(w.route, byUuid.get(spawn.spawn?.entryUuid ?? '')) : null;
      store(w.key, fragmentOf(transcript, diagnostics, spawnAt));
    });
  if (main.size > 0) windows.set(null, windowOf(null, main, pages.main));
  for (const [id, wanted] of sidechains) {
    const list = pages.sidechains.get(id);
    if (list) windows.set(id, windowOf(id, wanted, list));
    else {
      // A run without its transcript: its page shows the prompt and answer of its call, as for a loaded session.
      const sc = session.sidechains.find((c) => c.id === id);
      const w = wanted.get(1);
      if (!sc || !w) continue;
      const spawnAt = href(w.route, byUuid.get(sc.spawn?.entryUuid ?? ''));
      const diagnostics = { shown: null, total: read.diagnosticsTotal };
      store(w.key, fragmentOf(spawnExchange(session, sc).value, diagnostics, spawnAt));
    }
  }
  if (windows.size > 0) {
    try {
      for await (const item of pagedItems(job.file, new Set(['metadata', 'responses', 'diagnostics']))) {
        if (item.field !== 'entries') continue;
        const e = item.value as Entry;
        windows.get(e.sidechain !== null ? e.sidechain : e.active ? null : '')?.add(e);
      }
    } catch (error) {
      return { errors: [fileError(job.file, error)] };
    }
    for (const window of windows.values()) window.finish();
  }
  // Nothing of it in the search index (its piece would hold every entry), said once so that a rebuild does not
  // read the session again for it.
  const searchKey = searchPieceKey(job.projectSlug, s);
  if (!keepSearchPiece(pack, searchKey)) storeSearchPiece(pack, searchKey, null);
  return { file: job.file, part: computed, pages: rendered };
}
