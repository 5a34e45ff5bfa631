import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isArchiveFolder } from '../archive/archive-input.js';
import { exportArchive } from '../archive/export-archive.js';
import { flag, stringOption } from '../command-line/args.js';
import type { CommandContext } from '../command-line/command.js';
import { CliError, exitCodeFor } from '../command-line/errors.js';
import { foreignEntries, foreignFolderError, refuseOverlap } from '../files/output-folder.js';
import { readFilters, selectSessions } from '../input/input.js';
import { inputPaths } from '../input/input-paths.js';
import { redactedLine } from '../privacy/summary.js';
import { privateCache } from '../runtime/cache-contents.js';
import { cacheFolderProblem, cacheName, cacheRoot } from '../runtime/cache-dir.js';
import { JobRunner } from '../runtime/job-runner.js';
import { guardRun } from '../runtime/run-guard.js';
import { plural, printDiagnostics } from '../terminal/diagnostic-output.js';
import { progressBar } from '../terminal/progress.js';
import { styleFor } from '../terminal/terminal.js';
import { archiveNotes } from './archive-notes.js';

/** What an archive folder holds that cctrail wrote. */
const ARCHIVE_NAMES = new Set([
  'index.json',
  'manifest.json',
  'sessions',
  'sources',
  'superseded',
  '.cctrail-state.json',
]);

/** Does the work of `cctrail export` (see `exportCommand`). */
export async function runExport({ options, positionals, io }: CommandContext): Promise<number> {
  const output = stringOption(options, 'output');
  if (output === undefined || output === '') {
    throw new CliError('export needs an output: -o DIR (or -o - for NDJSON on stdout)', {
      hint: 'Run `cctrail export --help` for the options.',
    });
  }
  const filters = readFilters(options);
  const selection = await selectSessions(positionals, filters, io);
  const toStdout = output === '-';
  const dir = resolve(io.cwd, output);
  if (!toStdout && (await stat(dir).catch(() => null))?.isDirectory() === false) {
    throw new CliError(`the output ${output} is a file; give a folder (or - for NDJSON on stdout)`);
  }
  const redact = flag(options, 'redact');
  const sourcesOnly = flag(options, 'sources-only');
  if (sourcesOnly && (redact || toStdout))
    throw new CliError(
      '--sources-only keeps the transcripts as written: it goes with neither --redact nor -o -',
    );
  const cache = cacheRoot(io.env, io.cwd);
  if (!toStdout) {
    refuseOverlap(dir, { inputs: inputPaths(positionals, io), cache });
    const foreign = await foreignEntries(dir, ARCHIVE_NAMES);
    if (foreign.length > 0 && !(await isArchiveFolder(dir)) && !flag(options, 'force'))
      throw foreignFolderError(dir, 'a cctrail archive', foreign);
  }
  // Without a writable cache the export reads every session again: slower, never wrong.
  const skeletons = toStdout ? null : join(cache, 'exports', cacheName(dir));
  if (skeletons !== null) privateCache(cache);
  const problem = skeletons === null ? null : cacheFolderProblem(skeletons);
  if (problem !== null)
    io.stderr.write(
      `Warning: the cache folder ${cache} cannot be written (${problem}); exporting without it (set CCTRAIL_CACHE_DIR to use another).\n`,
    );
  const runner = new JobRunner(io.env);
  // The skeleton cache is written beside the archive: a signal during its save leaves no temporary there either.
  const guard = toStdout
    ? null
    : guardRun(dir, skeletons === null ? [] : [skeletons], cache, () => runner.close());
  const progress = progressBar(io, selection.sessions.length, 'sessions');
  const result = await exportArchive({
    selection,
    target: toStdout ? { stream: io.stdout } : { dir },
    runner,
    progress,
    ...(redact ? { privacy: { redact: true, shortHome: false } } : { keepSources: !toStdout }),
    prune: flag(options, 'prune'),
    sourcesOnly,
    // The archive's own sessions are read again from its sources each run: their skeletons are cached.
    ...(skeletons === null || problem !== null ? {} : { skeletonCache: join(skeletons, 'skeletons.json') }),
  })
    // The skeletons are written before the run's temporary files are swept.
    .then(async (outcome) => {
      await outcome.cacheWritten;
      return outcome;
    })
    .finally(async () => {
      progress.done();
      await runner.close();
      await guard?.finish();
    });

  const tally = printDiagnostics(result.sessions, io, flag(options, 'verbose') || flag(options, 'strict'));
  io.stderr.write(
    redact
      ? `${redactedLine(result.redacted, result.byRule)}.\n`
      : 'Secrets were NOT redacted: the archive holds the transcripts as written. Use --redact before sharing it.\n',
  );
  if (!toStdout) archiveNotes(result, dir, io);
  if (result.sessions.length === 0) {
    io.stderr.write(`No session matches the filters${toStdout ? '' : `; ${dir} was left as it was`}.\n`);
  } else if (!toStdout) {
    const style = styleFor(io.stdout, io.env);
    const removed = result.removed > 0 ? `, ${result.removed} removed` : '';
    io.stdout.write(
      `Exported ${plural(result.sessions.length, 'session')} to ${style.bold(dir)} ` +
        `(${result.written} written, ${result.unchanged} unchanged${removed})\n`,
    );
  }
  return exitCodeFor(tally.error, flag(options, 'strict'));
}
