import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type ExportOutcome, exportArchive } from '../archive/export-archive.js';
import { flag, stringOption } from '../command-line/args.js';
import type { CommandContext } from '../command-line/command.js';
import { CliError, exitCodeFor } from '../command-line/errors.js';
import { foreignFolderError, realPath, refuseOverlap } from '../files/output-folder.js';
import { readFilters, selectSessions } from '../input/input.js';
import { inputPaths } from '../input/input-paths.js';
import { openInBrowser } from '../open-report.js';
import { redactedLine } from '../privacy/summary.js';
import { privacyTransform } from '../privacy/transform.js';
import { retentionFacts, retentionLine } from '../retention/notice.js';
import { INPUT_NAME, OUTPUT_NAME, privateCache, pruneReportCaches } from '../runtime/cache-contents.js';
import { cacheName, cacheRoot } from '../runtime/cache-dir.js';
import { fileStats } from '../runtime/file-stats.js';
import { liveLocksOf } from '../runtime/folder-lock.js';
import { JobRunner } from '../runtime/job-runner.js';
import { guardRun } from '../runtime/run-guard.js';
import { SkeletonCache } from '../runtime/skeleton-cache.js';
import { childBuild } from '../serve/child-build.js';
import { settleOption } from '../serve/settle-option.js';
import { watchFolder } from '../serve/watch-folder.js';
import { plural, printDiagnostics } from '../terminal/diagnostic-output.js';
import { progressBar } from '../terminal/progress.js';
import { styleFor } from '../terminal/terminal.js';
import { sizeText } from './cache-run.js';
import { nextSteps } from './first-run.js';
import { loadReportModule } from './report-module.js';
import { REPORT_OPTIONS } from './report-options.js';
import { printUnread } from './report-unread.js';

/** The skeletons of a report's sessions, in its cache folder: a folder of compressed blocks (`openBlocks`). */
const SKELETONS = 'skeletons';
/** Where earlier versions kept them in one file: read once, then removed. */
const SKELETONS_FILE = 'skeletons.json.br';
/** The mark, in the report's cache folder, of a run that completed (`guardRun`'s `cleanEnd`). */
const CLEAN_END = 'completed';

/** The bytes of the files of the sessions selected: what a report's cache is compared with. */
function inputBytes(sessions: readonly { discovered: Parameters<typeof fileStats>[0] }[]): number {
  let bytes = 0;
  for (const { discovered } of sessions)
    for (const { size } of fileStats(discovered)) bytes += Math.max(0, size);
  return bytes;
}

/**
 * Where `cctrail report` keeps what a rebuild of one output folder reuses (the redacted archive and the site
 * builder's cache): outside that folder, so nothing of it is ever published with the site.
 * `$CCTRAIL_CACHE_DIR`, else `$XDG_CACHE_HOME/cctrail`, else `~/.cache/cctrail`; one folder per output folder.
 * Always an absolute path: the site builder changes the working directory while the archive is still written.
 *
 * @param outDir The output folder, absolute.
 * @param env The environment.
 * @param cwd What a relative cache folder is relative to.
 */
function reportCacheDir(outDir: string, env: NodeJS.ProcessEnv, cwd: string): string {
  return join(cacheRoot(env, cwd), 'reports', cacheName(outDir));
}

/** Does the work of `cctrail report` (see `reportCommand`). */
export async function runReport({ options, positionals, io, firstRun }: CommandContext): Promise<number> {
  if (flag(options, 'watch')) {
    const once = { ...options, watch: false };
    const code = await runReport({ options: once, positionals, io });
    if (code !== 0) return code;
    // Rebuilds in a child process: memory a build leaves behind goes with it.
    const build = childBuild(process.argv[1] ?? '', { ...once, open: false }, REPORT_OPTIONS, positionals);
    return watchFolder({
      paths: inputPaths(positionals, io),
      io,
      outDir: resolve(io.cwd, stringOption(options, 'output') ?? 'cctrail-report'),
      build,
      privacy: () =>
        privacyTransform({
          redact: !flag(options, 'no-redact'),
          shortHome: flag(options, 'short-home'),
        }),
      settleMs: settleOption(stringOption(options, 'settle')),
    });
  }
  const outDir = resolve(io.cwd, stringOption(options, 'output') ?? 'cctrail-report');
  const base = stringOption(options, 'base');
  const title = stringOption(options, 'title');
  const repo = stringOption(options, 'repo');
  if (repo !== undefined && !/^https?:\/\/[^\s"'<>]+$/i.test(repo))
    throw new CliError(`--repo must be an http(s) URL, got ${JSON.stringify(repo)}`);
  const redact = !flag(options, 'no-redact');
  const shortHome = flag(options, 'short-home');
  const filters = readFilters(options);
  if ((await stat(outDir).catch(() => null))?.isDirectory() === false) {
    throw new CliError(`the output ${outDir} is a file; give a folder`);
  }
  // The archive lives in the report's cache folder, so a rebuild re-exports only the sessions that changed.
  const cache = reportCacheDir(outDir, io.env, io.cwd);
  // Read and decompressed in libuv's pool while this thread loads the site builder. Its keys name the files
  // and the code they were built from: whatever another run does meanwhile, a skeleton found is right.
  const skeletons = SkeletonCache.openBlocks(join(cache, SKELETONS), join(cache, SKELETONS_FILE));
  const report = await loadReportModule();
  refuseOverlap(outDir, { inputs: inputPaths(positionals, io), cache: cacheRoot(io.env, io.cwd) });
  const force = flag(options, 'force');
  const folder = report.inspectOutputFolder(outDir, join(cache, 'site'));
  if (folder.kind === 'foreign' && !force)
    throw foreignFolderError(outDir, 'a cctrail report', folder.entries);
  const selection = await selectSessions(positionals, filters, io);

  const dataDir = join(cache, 'archive');
  const siteCache = join(cache, 'site');
  privateCache(cacheRoot(io.env, io.cwd));
  const live = new Set(liveLocksOf(cacheRoot(io.env, io.cwd)).map((lock) => lock.folder));
  const pruned = pruneReportCaches(
    cacheRoot(io.env, io.cwd),
    (folder) => folder === outDir || live.has(realPath(folder)),
  );
  if (pruned.removed > 0)
    io.stderr.write(`Removed the caches of reports whose folders are gone (${sizeText(pruned.removed)}).\n`);
  for (const kept of pruned.holding)
    io.stderr.write(
      `The report once in ${kept.output} is gone; its cache (${kept.dir}) is kept: it holds ${kept.sessions > 0 ? plural(kept.sessions, 'session') : 'sessions'} whose transcripts were not found by its last run. A report into ${kept.output} again includes them; \`cctrail cache clear\` removes them.\n`,
    );
  await mkdir(dataDir, { recursive: true });
  // `cctrail cache` names the output folder each report's cache belongs to, and compares it with its input.
  await writeFile(join(cache, OUTPUT_NAME), `${outDir}\n`);
  await writeFile(join(cache, INPUT_NAME), `${inputBytes(selection.sessions)}\n`);
  // Skeletons are kept compressed (`SKELETONS`): the file of earlier versions goes.
  await rm(join(cache, 'skeletons.json'), { force: true });
  const runner = new JobRunner(io.env);
  // Started while the export builds its last sessions, when it writes enough of them for the site to be rendered
  // in threads; the build stops them (see `BuildReportOptions.pageThreads`).
  const threads = report.pageThreads();
  // Released at the end, or when the process exits (an error, a signal).
  // The site is written in place (`SiteWriter`): no temporary file but the folder's record, at its top level.
  const stop = () => Promise.all([runner.close(), threads.close()]).then(() => undefined);
  const guard = guardRun(outDir, [cache], cacheRoot(io.env, io.cwd), stop, {
    outputInPlace: true,
    cleanEnd: join(cache, CLEAN_END),
  });
  const progress = progressBar(io, selection.sessions.length, 'sessions');
  // The site builder starts once a session is known to be a transcript: it bundles the site while the
  // sessions are written, and reads the archive once it is complete.
  const build = (archive?: Promise<unknown>) =>
    report.buildReport({
      dataDir,
      outDir,
      cacheDir: siteCache,
      force,
      pageThreads: threads,
      ...(archive ? { archive } : {}),
      // With --verbose, the builder's steps and their times.
      ...(flag(options, 'verbose') ? { log: (message: string) => io.stderr.write(`${message}\n`) } : {}),
      ...(base !== undefined ? { base } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(repo !== undefined ? { repo } : {}),
    });
  let building = null as ReturnType<typeof build> | null;
  const exported: Promise<ExportOutcome> = exportArchive({
    selection,
    target: { dir: dataDir },
    runner,
    progress,
    privacy: { redact, shortHome },
    prune: flag(options, 'prune'),
    manifest: false,
    // Only cctrail reads it: its session files are kept compressed (the cache stays under half its input).
    compressed: true,
    skeletonCache: skeletons,
    // The export workers prepare each session they write for the site, while it is in memory.
    reportCacheDir: siteCache,
    onPlanned: () => {
      building = build(exported);
    },
    onLastSessions: (written) => threads.start(written),
    // The export workers' heaps go before the archive's tail, while the page threads load.
    onSessionsBuilt: () => void runner.close(),
  }).finally(() => {
    progress.done();
    return runner.close();
  });
  let result: ExportOutcome;
  try {
    result = await exported;
  } catch (error) {
    // A build started before the export failed stops with the same error once it has cleaned up.
    await building?.catch(() => undefined);
    await threads.close();
    guard.release();
    throw error;
  }
  const tally = printDiagnostics(result.sessions, io, flag(options, 'verbose') || flag(options, 'strict'));
  // Released on failure too: `cctrail serve` and `--watch` build again in the same process.
  const { indexHtml, pages, unread } = await (building ?? build()).catch((error: unknown) => {
    guard.release();
    throw error;
  });
  const style = styleFor(io.stdout, io.env);
  const notes = [
    redact ? redactedLine(result.redacted, result.byRule) : 'secrets kept (--no-redact)',
    ...(shortHome ? [`${plural(result.shortened, 'home path')} shortened`] : []),
  ];
  const shown = result.index.projects.reduce((n, p) => n + p.sessions.length, 0);
  io.stderr.write(`Report of ${plural(shown, 'session')}, ${pages} pages; ${notes.join(', ')}\n`);
  printUnread(unread, io);
  if (result.archived.missing > 0)
    io.stderr.write(
      `${plural(result.archived.missing, 'session')} only in the report's archive: ${result.archived.missing === 1 ? 'its transcripts were' : 'their transcripts were'} deleted (--prune drops ${result.archived.missing === 1 ? 'it' : 'them'}).\n`,
    );
  for (const session of result.pruned) io.stderr.write(`Pruned ${session.project}/${session.id}\n`);
  // A first run says it with its next steps.
  if (!firstRun) io.stderr.write(`${retentionLine(retentionFacts(io, result.archived.missing))}\n`);
  // The skeletons were written while the site was built: before the run's temporary files are swept.
  await result.cacheWritten;
  await guard.finish();
  io.stdout.write(`${style.bold(indexHtml)}\n`);
  if (firstRun) io.stderr.write(nextSteps(indexHtml, io, { paths: positionals, options }));
  if (flag(options, 'open')) await openInBrowser(indexHtml, io);
  return exitCodeFor(tally.error, flag(options, 'strict'));
}
