import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { flag, type OptionValues, stringOption } from '../command-line/args.js';
import type { CommandContext, Io } from '../command-line/command.js';
import { exitCodeFor } from '../command-line/errors.js';
import { inputPaths } from '../input/input-paths.js';
import { retentionFacts, retentionLine } from '../retention/notice.js';
import { privateCache } from '../runtime/cache-contents.js';
import { cacheName, cacheRoot } from '../runtime/cache-dir.js';
import { JobRunner } from '../runtime/job-runner.js';
import { printDiagnostics } from '../terminal/diagnostic-output.js';
import { styleFor } from '../terminal/terminal.js';
import { costBreakdown } from './stats-by.js';

/**
 * The file `stats` keeps session digests in, one per list of input paths: `<cache>/stats/<name>.json` (see
 * `cacheRoot`); its last result is kept beside it (`statsResultFile`).
 */
function statsCacheFile(positionals: readonly string[], io: Io): string {
  const inputs = [...new Set(inputPaths(positionals, io))].sort();
  privateCache(cacheRoot(io.env, io.cwd));
  return join(cacheRoot(io.env, io.cwd), 'stats', `${cacheName(JSON.stringify(inputs))}.json`);
}

/**
 * `statsOf`, its modules loaded once the workers have started: finding, filtering, building and combining the
 * sessions (@cctrail/core among them) while the workers load their own.
 */
async function countSessions(
  positionals: readonly string[],
  options: OptionValues,
  io: Io,
  runner: JobRunner,
  cacheFile: string | undefined,
) {
  const [{ readFilters }, { statsOf }] = await Promise.all([
    import('../input/input.js'),
    import('./stats-of.js'),
  ]);
  return statsOf(positionals, readFilters(options), io, runner, cacheFile);
}

/** Does the work of `cctrail stats` (see `statsCommand`). */
export async function runStats({ options, positionals, io }: CommandContext): Promise<number> {
  const by = costBreakdown(stringOption(options, 'by'));
  const runner = new JobRunner(io.env, { shareThisThread: true });
  const cacheFile = flag(options, 'no-cache') ? undefined : statsCacheFile(positionals, io);
  // Without a cache to read, every session will be built: the workers start first, and load their modules while
  // this thread loads what finds, filters and combines the sessions.
  if (cacheFile === undefined || !existsSync(cacheFile)) runner.start();
  const { sessions, stats, archiveOnly } = await countSessions(
    positionals,
    options,
    io,
    runner,
    cacheFile,
  ).finally(() => runner.close());
  if (flag(options, 'json')) {
    io.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
  } else {
    const [{ renderStats }, { renderConversations }, { renderCostBreakdown }] = await Promise.all([
      import('./stats-tables.js'),
      import('./stats-conversations.js'),
      import('./stats-cost.js'),
    ]);
    const style = styleFor(io.stdout, io.env);
    io.stdout.write(renderStats(stats, style) + renderConversations(stats, style));
    if (by !== null) io.stdout.write(`\n${renderCostBreakdown(stats, by, style)}\n`);
    io.stdout.write(`\n${retentionLine(retentionFacts(io, archiveOnly))}\n`);
  }
  if (sessions.length === 0) io.stderr.write('No session matches the filters.\n');
  const tally = printDiagnostics(sessions, io, flag(options, 'verbose') || flag(options, 'strict'));
  return exitCodeFor(tally.error, flag(options, 'strict'));
}
