import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { flag, stringOption } from '../command-line/args.js';
import type { CommandContext, Io } from '../command-line/command.js';
import { exitCodeFor } from '../command-line/errors.js';
import { inputPaths, readFilters } from '../input/input.js';
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

/** Does the work of `cctrail stats` (see `statsCommand`). */
export async function runStats({ options, positionals, io }: CommandContext): Promise<number> {
  const filters = readFilters(options);
  const by = costBreakdown(stringOption(options, 'by'));
  const runner = new JobRunner(io.env, { shareThisThread: true });
  const cacheFile = flag(options, 'no-cache') ? undefined : statsCacheFile(positionals, io);
  // Without a cache to read, every session will be built: the workers start while the sessions are found.
  if (cacheFile === undefined || !existsSync(cacheFile)) runner.start();
  // Loaded once the workers have started (they load their own modules meanwhile), and the tables only for them.
  const { statsOf } = await import('./stats-of.js');
  const { sessions, stats, archiveOnly } = await statsOf(positionals, filters, io, runner, cacheFile).finally(
    () => runner.close(),
  );
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
