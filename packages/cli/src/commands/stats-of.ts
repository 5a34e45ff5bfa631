import { existsSync } from 'node:fs';
import { combineStats } from '@cctrail/core/archive';
import { archivedStatuses, sessionKey, sourceStats } from '../archive/archive-input.js';
import type { Io } from '../command-line/command.js';
import { type Filters, selectSessions } from '../input/input.js';
import { mapStrings } from '../privacy/rewrite-strings.js';
import type { JobRunner } from '../runtime/job-runner.js';
import { skeletonKey } from '../runtime/skeleton-cache.js';
import {
  readStatsResult,
  type StatsResult,
  statsResultFile,
  statsResultKey,
  writeStatsResult,
} from '../runtime/stats-result.js';
import { buildSkeletons } from '../sessions/skeletons.js';
import { progressBar } from '../terminal/progress.js';
import { withConversations } from './stats-conversations.js';

/**
 * What `stats` prints, and how many sessions an archive kept without their transcripts: the sessions are
 * selected, built (or their skeletons read from the cache) and combined; the result is redacted. With a cache
 * file, a run over the same files as the last one takes the last one's result and reads no skeleton.
 *
 * The runner is closed once the sessions are built: it takes no job after.
 *
 * @param positionals The input paths.
 * @param cacheFile The skeletons file (see `statsCacheFile`), or undefined for a run without the cache.
 */
export async function statsOf(
  positionals: readonly string[],
  filters: Filters,
  io: Io,
  runner: JobRunner,
  cacheFile: string | undefined,
): Promise<StatsResult & { archiveOnly: number }> {
  const selection = await selectSessions(positionals, filters, io);
  const skipped = selection.skipped ?? [];
  const statuses = archivedStatuses(selection.sessions);
  // Sessions read from an archive that kept them without their transcripts (the deleted ones are counted).
  const archiveOnly = [...statuses.values()].filter((s) => s.status === 'missing').length;
  const files = selection.sessions.map((source) => sourceStats(source));
  // Each session's skeleton key, computed once: for the last result's key and for the skeletons' cache.
  const keys: string[] = [];
  const keyOf = (index: number) => (keys[index] ??= skeletonKey(files[index]!));
  const resultFile = cacheFile && statsResultFile(cacheFile);
  const resultKey = () =>
    statsResultKey(
      [filters, skipped, [...statuses]],
      files.map((_, i) => keyOf(i)),
    );
  // A run over the same files as the last one prints what the last one printed, without reading its skeletons.
  // Without a last result (a first run), no key is computed before the first sessions are handed out.
  const kept =
    resultFile && existsSync(resultFile) ? await readStatsResult(resultFile, resultKey()) : undefined;
  if (kept) return { ...kept, archiveOnly };
  // Redaction's rules are loaded and compiled (on a first use) while the sessions are built, not before the first
  // is, nor after the last, when this thread alone combines what was built.
  const redaction = import('../privacy/redact.js').then((module) => {
    module.redactText('');
    return module;
  });
  const progress = progressBar(io, selection.sessions.length, 'sessions');
  const { sessions, saved } = await buildSkeletons(selection.sessions, filters, progress, runner, cacheFile, {
    keepOthers: filtered(filters),
    files,
    // Without a cache, no key is computed at all.
    keyOf: cacheFile ? keyOf : undefined,
  }).finally(() => progress.done());
  // Every session is built: the workers stop while this thread combines, not after.
  const closed = runner.close();
  const built = withConversations(combineStats(sessions.map((session) => session.digest)), sessions);
  if (skipped.length > 0) built.diagnostics = skipped;
  for (const session of built.sessions) {
    const status = statuses.get(sessionKey(session.project, session.sessionId));
    if (status) session.archived = status;
  }
  // Model names, paths and titles are text from the transcripts: stats output is redacted like a report.
  const made: StatsResult = {
    stats: redactStrings(built, (await redaction).redactText),
    sessions: sessions.map(({ id, diagnostics }) => ({ id, diagnostics })),
  };
  if (resultFile) await writeStatsResult(resultFile, resultKey(), made);
  await Promise.all([saved, closed]);
  return { ...made, archiveOnly };
}

/**
 * `redactSecrets(value).value`, each distinct string redacted once: the statistics repeat their keys, names and
 * paths thousands of times (50,643 strings, 3,319 distinct, on 555 sessions).
 */
function redactStrings<T>(value: T, redactText: (text: string) => { text: string; count: number }): T {
  const done = new Map<string, string>();
  const redact = (text: string): string => {
    let redacted = done.get(text);
    if (redacted === undefined) {
      const result = redactText(text);
      redacted = result.count > 0 ? result.text : text;
      done.set(text, redacted);
    }
    return redacted;
  };
  return mapStrings(value, { value: redact, key: redact });
}

/** Whether the filters leave out some of the sessions under the input paths. */
function filtered(filters: Filters): boolean {
  return (
    filters.projects.length > 0 ||
    filters.sessions.length > 0 ||
    filters.since !== null ||
    filters.until !== null
  );
}
