import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionRoute } from '../views/html/links.js';
import { loadHighlighter } from '../views/markdown/highlight.js';
import type { Session } from '../views/model.js';
import { searchPieceBytes } from '../views/search/search-text.js';
import { sessionRoutes } from '../views/site/routes.js';
import { type CachedPart, failedPart, summarizeSession } from '../views/site/session-part.js';
import {
  failedFragment,
  fragmentKey,
  renderFragment,
  scopeOf,
  sessionLocator,
} from '../views/transcript/transcript-fragment.js';
import { keepFragment, storeFragment } from './fragments.js';
import { type Loaded, loadSession, sessionJsonLimit } from './load.js';
import {
  cachedPart,
  cachePart,
  keepPart,
  type ListedSession,
  manifestSession,
  packedPart,
} from './manifest.js';
import { PackWriter } from './packs.js';
import { holdsMoreThan } from './paged-read.js';
import { processPagedSession } from './paged-session.js';
import { keepSearchPiece, searchPieceKey, storeSearchPiece } from './search-pieces.js';
import { runWorker, shareByWeight } from './workers.js';

/**
 * The one read of a session file in a build: the session is loaded once, summarized into its part (unless
 * the part is cached) and rendered into the transcript fragments of its pages that are not cached yet. This
 * is where a build spends its time (markdown, highlighting), so sessions are shared among worker threads.
 */

/**
 * A session to read: its place in the archive, and its part when that is cached already (`undefined`: not looked
 * up yet, it is taken from the session's pack when there).
 */
export interface SessionJob extends ListedSession {
  part: CachedPart | null | undefined;
}

/** What reading one session gave: its part when it was computed, and the fragments rendered. */
export interface SessionDone {
  file: string;
  part: CachedPart | null;
  pages: number;
}

/**
 * Reads one session (or takes it from `inMemory`, equal to the file's content) and caches what its pages
 * need: a file too large to read whole is read and rendered page by page (`processPagedSession`). The
 * highlighter must be loaded (`loadHighlighter`).
 *
 * @param entryTexts With `inMemory`: each of its entries' search text (`entrySearchText`), taken already.
 */
export async function processSession(
  job: SessionJob,
  cacheDir: string,
  inMemory?: Session,
  entryTexts?: readonly string[],
): Promise<SessionDone> {
  const limit = sessionJsonLimit();
  const huge = !inMemory && job.keyError === undefined && (await holdsMoreThan(job.file, job.bytes, limit));
  let loaded: Loaded<Session> = inMemory
    ? { ok: true, value: inMemory }
    : huge
      ? { ok: false, errors: [], tooLarge: true }
      : loadSession(job.file, limit);
  if (!loaded.ok && loaded.tooLarge) {
    const part = job.part === undefined ? cachedPart(cacheDir, job.key) : job.part;
    const paged = await processPagedSession({ ...job, part }, cacheDir);
    if (!('errors' in paged)) return paged;
    loaded = { ok: false, errors: paged.errors };
  }
  const pack = new PackWriter(cacheDir, job.key);
  try {
    const done = cacheSession(job, loaded, pack, inMemory ? entryTexts : undefined);
    pack.commit();
    return done;
  } catch (error) {
    pack.abort();
    throw error;
  }
}

/** Puts into the session's pack what is not there yet: its part, its fragments, its search piece. */
function cacheSession(
  job: SessionJob,
  loaded: Loaded<Session>,
  pack: PackWriter,
  entryTexts: readonly string[] | undefined,
): SessionDone {
  let part = job.part === undefined ? packedPart(pack, job.key) : job.part;
  let computed: CachedPart | null = null;
  if (part) keepPart(pack, job.key);
  else {
    part = loaded.ok
      ? summarizeSession(loaded.value)
      : failedPart(job.keyError !== undefined ? [job.keyError] : loaded.errors);
    // A file that does not load is read again next time: it may have been fixed.
    if (loaded.ok) cachePart(pack, job.key, part);
    computed = part;
  }
  const s = manifestSession(job, part);
  let pages = 0;
  for (const r of sessionRoutes(job.projectSlug, s)) {
    const at = scopeOf(r.props);
    if (!at) continue;
    const key = fragmentKey(job.projectSlug, s, at.scope, at.page);
    if (keepFragment(pack, key)) continue;
    const fragment = loaded.ok
      ? renderFragment(loaded.value, job.projectSlug, s, at.scope, at.page, r.route)
      : failedFragment(loaded.errors);
    storeFragment(pack, key, fragment, loaded.ok ? job.file : undefined);
    pages++;
  }
  const searchKey = searchPieceKey(job.projectSlug, s);
  if (loaded.ok && !keepSearchPiece(pack, searchKey)) {
    const locate = sessionLocator(loaded.value, job.projectSlug, s);
    const home = sessionRoute(job.projectSlug, s.slug);
    storeSearchPiece(pack, searchKey, searchPieceBytes(loaded.value, locate, home, entryTexts));
  }
  return { file: job.file, part: computed, pages };
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Session files of fewer bytes than this in all are read in this thread (or than the number in
 * `CCTRAIL_TEST_SESSION_THREADS_FROM`, for tests): a thread takes a third of a second to start and load the
 * views, more than it would save on them.
 */
function threadsFromBytes(): number {
  const from = Number(process.env.CCTRAIL_TEST_SESSION_THREADS_FROM || Number.NaN);
  return Number.isSafeInteger(from) && from >= 0 ? from : 4 * 2 ** 20;
}

/**
 * Runs `processSession` on every job: in worker threads (one per core, at most four, each with a share of
 * about equal bytes) when there are more than two sessions, of a few megabytes in all (`threadsFromBytes`), and
 * the package is compiled, else in this thread (a few sessions, a rebuild, are quicker here than in threads that
 * must start and load everything first).
 *
 * @returns The parts computed, by file.
 */
export async function runSessionPass(
  jobs: readonly SessionJob[],
  cacheDir: string,
  log: (msg: string) => void,
): Promise<Map<string, CachedPart>> {
  const parts = new Map<string, CachedPart>();
  if (jobs.length === 0) return parts;
  const started = Date.now();
  const worker = join(here, 'session-worker.js');
  const threads = Math.min(4, availableParallelism(), jobs.length);
  const bytes = jobs.reduce((a, j) => a + j.bytes, 0);
  const inThread = !existsSync(worker) || threads < 2 || jobs.length <= 2 || bytes < threadsFromBytes();
  let done: SessionDone[];
  if (inThread) {
    await loadHighlighter();
    done = [];
    for (const job of jobs) done.push(await processSession(job, cacheDir));
  } else {
    const shares = shareByWeight(jobs, threads, (j) => j.bytes);
    const results = await Promise.all(
      shares.map((share) => runWorker<{ done: SessionDone[] }>(worker, { jobs: share, cacheDir })),
    );
    done = results.flatMap((r) => r?.done ?? []);
  }
  for (const d of done) if (d.part) parts.set(d.file, d.part);
  const pages = done.reduce((a, d) => a + d.pages, 0);
  log(
    `report: ${jobs.length} session files read, ${pages} transcript pages rendered by ${inThread ? 1 : threads} threads in ${Date.now() - started} ms`,
  );
  return parts;
}
