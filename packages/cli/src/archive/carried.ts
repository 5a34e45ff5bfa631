import { createReadStream } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';
import { type Cost, SCHEMA_VERSION } from '@cctrail/core';
import type {
  ArchivedStatus,
  ArchiveIndex,
  ArchiveProject,
  ArchiveSessionSummary,
} from '@cctrail/core/archive';
import { COMPRESSED, insideFolder, writeIfChanged } from '../files/atomic-write.js';
import { sessionKey } from './archive-input.js';

/**
 * Sessions an archive keeps without sources to read them again from (archives written with `--redact`, the
 * report's own archive, archives of cctrail before schema 3): their index lines are carried from the previous
 * index into the new one as they were, with a status, and their files stay as they are (upgraded in place to
 * the current schema version).
 */

/** A line carried over, with its project. */
export interface CarriedLine {
  project: Pick<ArchiveProject, 'slug' | 'id' | 'cwd'>;
  summary: ArchiveSessionSummary;
}

/**
 * The lines of the previous index whose sessions the new one does not hold, each with its file still there.
 *
 * @param dir The archive folder.
 * @param previous The previous index (null: none).
 * @param present The sessions of the new index, by `sessionKey`.
 * @param missing Whether transcripts shown by these paths were looked for and not found in this run.
 */
export async function carriedLines(
  dir: string,
  previous: ArchiveIndex | null,
  present: ReadonlySet<string>,
  missing: (key: string, sources: readonly string[]) => boolean,
): Promise<CarriedLine[]> {
  const out: CarriedLine[] = [];
  for (const project of previous?.projects ?? []) {
    if (typeof project?.slug !== 'string' || !Array.isArray(project.sessions)) continue;
    for (const summary of project.sessions) {
      if (typeof summary?.id !== 'string' || typeof summary.file !== 'string') continue;
      const key = sessionKey(project.slug, summary.id);
      if (present.has(key)) continue;
      if (!(await upgradeInPlace(dir, summary.file))) continue;
      const lastSeen = summary.archived?.lastSeen ?? null;
      const archived: ArchivedStatus = missing(key, Array.isArray(summary.sources) ? summary.sources : [])
        ? { status: 'missing', lastSeen }
        : (summary.archived ?? { status: 'kept', lastSeen });
      out.push({
        project: { slug: project.slug, id: project.id, cwd: project.cwd ?? null },
        summary: { ...summary, archived },
      });
    }
  }
  return out;
}

/**
 * The heads of session files of earlier schemas (all of one length): from 2 to 3 only the version number
 * changed; from 3 to 4 the files stopped writing `duplicateOf` (a fact about several sessions: `index.json`'s).
 */
const OLD_HEADS = ['{"schemaVersion":2,', '{"schemaVersion":3,'];
const OLD_HEAD_LENGTH = OLD_HEADS[0]!.length;

/** Largest session file whose text is read whole to upgrade it; a larger one gets its version number only. */
const PARSED_UPGRADE_LIMIT = 256 * 1024 * 1024;

/**
 * The text of a session file of an earlier schema made current: its version number, and without the
 * `duplicateOf` it held (written as cctrail writes a session file: compact JSON and a newline). A text that does
 * not parse keeps its bytes but for its version number.
 */
function currentText(text: string): string {
  try {
    const session = JSON.parse(text) as Record<string, unknown>;
    session.schemaVersion = SCHEMA_VERSION;
    delete session.duplicateOf;
    return `${JSON.stringify(session)}\n`;
  } catch {
    return `{"schemaVersion":${SCHEMA_VERSION},${text.slice(OLD_HEAD_LENGTH)}`;
  }
}

/**
 * Makes a session file of an earlier schema version current, in place (atomically): its version number, and its
 * `duplicateOf` dropped (see `currentText`; a file over `PARSED_UPGRADE_LIMIT` keeps it, ignored by readers).
 *
 * @param dir The archive folder.
 * @param file The session file's path in it.
 * @returns False when the file is gone or is not a session file cctrail wrote.
 */
export async function upgradeInPlace(dir: string, file: string): Promise<boolean> {
  let path: string;
  try {
    path = insideFolder(dir, file);
  } catch {
    return false;
  }
  if (path.endsWith(COMPRESSED)) return upgradeCompressed(path);
  const head = Buffer.alloc(OLD_HEAD_LENGTH);
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return false;
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const text = head.toString('utf8');
  if (text.startsWith(`{"schemaVersion":${SCHEMA_VERSION},`)) return true;
  if (!OLD_HEADS.includes(text)) return false;
  const bytes = await readFile(path);
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    const upgraded =
      bytes.length <= PARSED_UPGRADE_LIMIT
        ? currentText(bytes.toString('utf8'))
        : Buffer.concat([
            Buffer.from(`{"schemaVersion":${SCHEMA_VERSION},`),
            bytes.subarray(OLD_HEAD_LENGTH),
          ]);
    await writeFile(temporary, upgraded);
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true });
    return false;
  }
  return true;
}

/** `upgradeInPlace` for a compressed session file: its head read off the start of its text. */
async function upgradeCompressed(path: string): Promise<boolean> {
  const head = await compressedHead(path);
  if (head.startsWith(`{"schemaVersion":${SCHEMA_VERSION},`)) return true;
  if (!OLD_HEADS.includes(head)) return false;
  try {
    const text = brotliDecompressSync(await readFile(path)).toString('utf8');
    await writeIfChanged(path, currentText(text));
  } catch {
    return false;
  }
  return true;
}

/** The first characters of a compressed file's text ('' when it cannot be read). */
async function compressedHead(path: string): Promise<string> {
  const source = createReadStream(path);
  const text = source.pipe(createBrotliDecompress());
  // A file that cannot be read ends the text with its error (a pipe would not).
  source.on('error', (error) => text.destroy(error));
  let head = '';
  try {
    for await (const chunk of text) {
      head += (chunk as Buffer).toString('latin1');
      if (head.length >= OLD_HEAD_LENGTH) break;
    }
  } catch {
    return '';
  } finally {
    source.destroy();
    text.destroy();
  }
  return head.slice(0, OLD_HEAD_LENGTH);
}

/**
 * Adds carried lines to an index: into their project (matched by slug), or as a project of their own, sessions
 * sorted by id; their usage and cost join the totals (without the per-response deduplication of the sessions
 * read in this run, whose digests these lines no longer have: a duplicate's line is not counted).
 *
 * @param index The new index, changed in place.
 * @param carried The carried lines.
 */
export function addCarried(index: ArchiveIndex, carried: readonly CarriedLine[]): void {
  if (carried.length === 0) return;
  const bySlug = new Map(index.projects.map((p) => [p.slug, p]));
  const ids = new Set(index.projects.map((p) => p.id));
  for (const { project, summary } of carried) {
    let target = bySlug.get(project.slug);
    if (!target) {
      let id = project.id;
      for (let n = 2; ids.has(id); n++) id = `${project.id}-${n}`;
      ids.add(id);
      target = { slug: project.slug, id, cwd: project.cwd, sessions: [] };
      bySlug.set(project.slug, target);
      index.projects.push(target);
    }
    target.sessions.push(summary);
    if (summary.duplicateOf !== null) continue;
    addUsage(index, summary);
    const cost = index.cost;
    const usd = summary.cost?.usd ?? 0;
    const day = summary.startedAt?.slice(0, 10) ?? 'unknown';
    for (const bucket of [
      cost.total,
      bucketOf(cost.byDay, day),
      bucketOf(cost.byProject, project.slug),
      bucketOf(cost.byModel, 'unknown'),
    ]) {
      bucket.usd += usd;
      bucket.unpriced += summary.cost?.unpriced ?? 0;
    }
  }
  for (const key of ['byDay', 'byProject', 'byModel'] as const)
    index.cost[key] = sortedByKey(index.cost[key]);
  index.projects.sort((a, b) => compare(a.slug, b.slug));
  for (const project of index.projects) project.sessions.sort((a, b) => compare(a.id, b.id));
}

function bucketOf(record: Record<string, Cost>, key: string): Cost {
  let bucket = Object.hasOwn(record, key) ? record[key] : undefined;
  if (!bucket) {
    bucket = { usd: 0, unpriced: 0 };
    Object.defineProperty(record, key, {
      value: bucket,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return bucket;
}

function addUsage(index: ArchiveIndex, summary: ArchiveSessionSummary): void {
  const into = index.usage as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(summary.usage ?? {}))
    if (typeof value === 'number' && typeof into[key] === 'number') into[key] = (into[key] as number) + value;
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort(compare))
    Object.defineProperty(out, key, {
      value: record[key]!,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
