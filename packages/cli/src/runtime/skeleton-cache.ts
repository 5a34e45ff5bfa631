import { readFile } from 'node:fs/promises';
import { brotliDecompressSync } from 'node:zlib';
import { COMPRESSED, writeIfChanged } from '../files/atomic-write.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { codeVersion } from './build-id.js';
import { fingerprint } from './export-state.js';
import type { FileStat } from './file-stats.js';
import type { SessionInput } from './jobs.js';
import { skeletonJson } from './jobs.js';

/** The first line of a skeletons file; then one skeleton a line, `"fingerprint":{…}` (see `save`). */
const SKELETONS_HEAD = '{"schemaVersion":1,"skeletons":{';

/**
 * Skeletons kept between runs in one file, keyed by a fingerprint of the session's files (size and
 * modification time) and of the code, so a session whose files did not change is not read again. A run keeps
 * the skeletons of the sessions it saw (see `put` and `keepOthers`); a cache that cannot be read or written only
 * costs a run its time.
 */
export class SkeletonCache {
  readonly #file: string | undefined;
  /** What the file held, by fingerprint, as JSON text: a hit is parsed alone, and written back as read. */
  readonly #cached: Map<string, string>;
  readonly #kept = new Map<string, string>();
  #built = 0;

  private constructor(file: string | undefined, cached: Map<string, string>) {
    this.#file = file;
    this.#cached = cached;
  }

  /**
   * Opens a cache file (none is no cache: every lookup misses and nothing is saved).
   *
   * @param file The file, absolute; missing or damaged files hold nothing.
   */
  static async open(file: string | undefined): Promise<SkeletonCache> {
    return new SkeletonCache(file, file === undefined ? new Map() : await readSkeletons(file));
  }

  /** The key of a session's skeleton, or null without a cache file. */
  key(files: readonly FileStat[]): string | null {
    return this.#file === undefined ? null : skeletonKey(files);
  }

  /** The cached skeleton under a key (kept for the next run), or undefined. */
  get(key: string | null): Skeleton | undefined {
    const text = key === null ? undefined : this.#cached.get(key);
    const skeleton = text === undefined ? undefined : parseSkeleton(text);
    if (skeleton) this.#kept.set(key!, text!);
    return skeleton;
  }

  /** Keeps a skeleton built in this run (as built: before duplicates are marked). */
  put(key: string | null, skeleton: Skeleton): void {
    this.#built++;
    if (key !== null) this.#kept.set(key, skeletonJson(skeleton));
  }

  /** Keeps also the cached skeletons of the sessions this run did not select (a run that selected some only). */
  keepOthers(selection: readonly SessionInput[]): void {
    const here = new Set(selection.map((s) => JSON.stringify([s.discovered.project, s.discovered.id])));
    for (const [key, text] of this.#cached) {
      if (this.#kept.has(key)) continue;
      const skeleton = parseSkeleton(text);
      if (skeleton && !here.has(JSON.stringify([skeleton.project, skeleton.id]))) this.#kept.set(key, text);
    }
  }

  /** Writes the skeletons kept, and only those, unless the file holds them already. */
  async save(): Promise<void> {
    if (this.#file === undefined || (this.#built === 0 && this.#kept.size === this.#cached.size)) return;
    const body = [...this.#kept.keys()]
      .sort()
      .map((key) => `${JSON.stringify(key)}:${this.#kept.get(key)!}`)
      .join(',\n');
    await writeIfChanged(this.#file, `${SKELETONS_HEAD}\n${body}\n}}\n`).catch(() => undefined);
  }
}

/**
 * The key of a session's skeleton: a fingerprint of its files (paths, sizes, modification times) and of the code.
 *
 * @param files The session's files, as `sourceStats` gives them.
 */
export function skeletonKey(files: readonly FileStat[]): string {
  return fingerprint([codeVersion()], files);
}

/** The skeletons of a cache file by fingerprint, as JSON text (none when it is missing or not one a line). */
async function readSkeletons(file: string): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  let lines: string[];
  try {
    const bytes = await readFile(file);
    // Written compressed when its name says so (`writeIfChanged`).
    lines = (file.endsWith(COMPRESSED) ? brotliDecompressSync(bytes) : bytes).toString('utf8').split('\n');
  } catch {
    return kept;
  }
  if (lines[0] !== SKELETONS_HEAD) return kept;
  for (const line of lines) {
    const at = line.indexOf('":');
    // The head and closing lines, and any damaged line, are no skeleton.
    if (!line.startsWith('"') || at === -1) continue;
    kept.set(line.slice(1, at), line.slice(at + 2, line.endsWith(',') ? -1 : undefined));
  }
  return kept;
}

/** A kept skeleton, or undefined when its text is damaged (the session is then built again). */
function parseSkeleton(text: string): Skeleton | undefined {
  try {
    const skeleton = JSON.parse(text) as Skeleton;
    return typeof skeleton === 'object' && skeleton !== null && typeof skeleton.id === 'string'
      ? skeleton
      : undefined;
  } catch {
    return undefined;
  }
}
