import { readFile } from 'node:fs/promises';
import { findDuplicates } from '@cctrail/core';
import { writeIfChanged } from './atomic-write.js';
import { CliError } from './errors.js';
import { fingerprint } from './export-state.js';
import { fileStats, transcriptBytes } from './file-stats.js';
import { type Filters, inTimeRange, type SelectedSession } from './input.js';
import type { JobRunner } from './job-runner.js';
import { LEAN_ABOVE_BYTES, type Skeleton, type SkeletonJob, skeletonJson } from './jobs.js';
import { forEachHeaviestFirst } from './pool.js';
import type { Progress } from './progress.js';
import { codeVersion } from './version.js';

/** Skeletons of the sessions, time-filtered, with `duplicateOf` set. */
export interface Skeletons {
  sessions: Skeleton[];
  /** The selected sessions they were built from, same order. */
  selected: SelectedSession[];
}

/**
 * Builds every selected session without content (structure, usage and diagnostics only: memory does not
 * grow with the size of tool outputs), a few at a time in worker threads, and keeps its skeleton; drops those
 * outside the time filters, and marks duplicates across the rest.
 *
 * With `cacheFile`, skeletons are kept in that file, keyed by a fingerprint of the session's files (size and
 * modification time), and a session whose files did not change is not read again. The file then keeps this
 * run's skeletons only, or with `keepOthers` (a run that selected only some of the sessions the file serves)
 * also those of the sessions this run did not select. A cache that cannot be written only costs the next run
 * its time.
 *
 * Throws a `CliError` when none of the files is a transcript at all.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
  runner: JobRunner,
  cacheFile?: string,
  options: { keepOthers?: boolean } = {},
): Promise<Skeletons> {
  const cached = cacheFile ? await readSkeletons(cacheFile) : new Map<string, string>();
  const kept = new Map<string, string>();
  let built = 0;
  // One `stat` of each file gives both the sizes (the order of work) and the fingerprints (the cache keys).
  const files = selection.map((source) => fileStats(source.discovered));
  const sizes = selection.map((source, index) => transcriptBytes(source.discovered, files[index]!));
  const build = async (source: SelectedSession, index: number): Promise<Skeleton> => {
    const print = cacheFile
      ? fingerprint(source.discovered, [codeVersion(), source.root], files[index])
      : null;
    const text = print === null ? undefined : cached.get(print);
    const hit = text === undefined ? undefined : parseSkeleton(text);
    if (hit) {
      kept.set(print!, text!);
      return hit;
    }
    const job: SkeletonJob = {
      kind: 'skeleton',
      input: { discovered: source.discovered, root: source.root },
    };
    const huge = sizes[index]! > LEAN_ABOVE_BYTES;
    const skeleton = await (huge ? runner.runHere(job) : runner.run(job));
    built++;
    if (print !== null) kept.set(print, skeletonJson(skeleton));
    return skeleton;
  };
  const sessions: Skeleton[] = [];
  const selected: SelectedSession[] = [];
  const notTranscripts: string[] = [];
  await forEachHeaviestFirst(
    selection,
    // The largest sessions first, so the threads finish together. Skeletons are small and kept anyway: those
    // that wait for their turn to be emitted cost little.
    (_, index) => sizes[index]!,
    runner.capacity,
    async (source, index) => {
      const skeleton = await build(source, index);
      progress.tick(skeleton.id.slice(0, 8));
      return skeleton;
    },
    (session, source) => {
      if (session.notATranscript) notTranscripts.push(session.digest.stats.file);
      if (!inTimeRange(session.digest.stats, filters)) return;
      sessions.push(session);
      selected.push(source);
    },
  );
  if (selection.length > 0 && notTranscripts.length === selection.length) {
    throw new CliError(
      notTranscripts.length === 1
        ? `${notTranscripts[0]} is not a Claude Code transcript: no line is a transcript record`
        : `none of the ${notTranscripts.length} files is a Claude Code transcript (no line is a transcript record)`,
    );
  }
  if (cacheFile) {
    if (options.keepOthers) keepOthers(kept, cached, selection);
    // Nothing built and nothing dropped: the file holds these skeletons already.
    if (built > 0 || kept.size !== cached.size) await writeSkeletons(cacheFile, kept).catch(() => undefined);
  }
  const duplicates = findDuplicates(sessions.map((s) => ({ id: s.id, uuids: s.digest.uuids })));
  sessions.forEach((session, index) => {
    session.digest.stats.duplicateOf = duplicates[index]!;
  });
  return { sessions, selected };
}

/** The first line of a skeletons file; then one skeleton a line, `"fingerprint":{…}` (see `writeSkeletons`). */
const SKELETONS_HEAD = '{"schemaVersion":1,"skeletons":{';

/**
 * Skeletons kept by an earlier run, by fingerprint, as their JSON text (none when the file is missing or is not
 * one skeleton a line). A hit is parsed alone, and its text written back as read: a rebuild neither parses nor
 * serializes the skeletons of the other sessions.
 */
async function readSkeletons(file: string): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  let lines: string[];
  try {
    lines = (await readFile(file, 'utf8')).split('\n');
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

/** Adds to `kept` the cached skeletons of sessions that are not in `selection`. */
function keepOthers(
  kept: Map<string, string>,
  cached: ReadonlyMap<string, string>,
  selection: readonly SelectedSession[],
): void {
  const here = new Set(selection.map((s) => JSON.stringify([s.discovered.project, s.discovered.id])));
  for (const [print, text] of cached) {
    if (kept.has(print)) continue;
    const skeleton = parseSkeleton(text);
    if (skeleton && !here.has(JSON.stringify([skeleton.project, skeleton.id]))) kept.set(print, text);
  }
}

/** Writes the skeletons kept (as built, before duplicates are marked), and only those. */
async function writeSkeletons(file: string, kept: ReadonlyMap<string, string>): Promise<void> {
  const body = [...kept.keys()]
    .sort()
    .map((print) => `${JSON.stringify(print)}:${kept.get(print)!}`)
    .join(',\n');
  await writeIfChanged(file, `${SKELETONS_HEAD}\n${body}\n}}\n`);
}
