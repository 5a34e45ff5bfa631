import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Diagnostic } from '@cctrail/core';
import type { ArchiveStats } from '@cctrail/core/archive';
import { writeIfChanged } from '../files/atomic-write.js';
import { codeVersion } from './build-id.js';

/** What a `stats` run printed, kept for the next run over the same files: the statistics and each session's diagnostics. */
export interface StatsResult {
  stats: ArchiveStats;
  sessions: { id: string; diagnostics: Diagnostic[] }[];
}

/**
 * The key of a result: the code, what the run found besides the sessions (its filters, the diagnostics of what it
 * skipped, the statuses of archived sessions) and the fingerprint of every selected session's files, in the order
 * of the selection. Equal keys mean the same skeletons in the same order, so the same statistics.
 *
 * @param context The run's own inputs, as JSON values.
 * @param sessionKeys Each selected session's skeleton key (see `skeletonKey`).
 */
export function statsResultKey(context: readonly unknown[], sessionKeys: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([codeVersion(), context, sessionKeys]))
    .digest('hex');
}

/** The file a skeletons file's result is kept in, beside it. */
export function statsResultFile(skeletonsFile: string): string {
  return skeletonsFile.replace(/(\.json)?$/, '.result.json');
}

/**
 * The result kept under `key`, or undefined when there is none, it was made from other files, or it is damaged
 * (the run then computes it again).
 */
export async function readStatsResult(file: string, key: string): Promise<StatsResult | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  // The key is the first line: a result made from other files is not parsed.
  const end = text.indexOf('\n');
  if (end === -1 || text.slice(0, end) !== key) return undefined;
  try {
    const result = JSON.parse(text.slice(end + 1)) as StatsResult;
    return Array.isArray(result?.sessions) && typeof result.stats === 'object' && result.stats !== null
      ? result
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a result under its key (a cache that cannot be written only costs the next run its time). */
export async function writeStatsResult(file: string, key: string, result: StatsResult): Promise<void> {
  await writeIfChanged(file, `${key}\n${JSON.stringify(result)}\n`).catch(() => undefined);
}
