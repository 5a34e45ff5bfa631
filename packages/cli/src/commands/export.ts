import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isArchiveFolder } from '../archive/archive-input.js';
import { exportArchive } from '../archive/export-archive.js';
import { flag, stringOption } from '../command-line/args.js';
import type { Command } from '../command-line/command.js';
import { CliError, exitCodeFor } from '../command-line/errors.js';
import { foreignEntries, foreignFolderError, refuseOverlap } from '../files/output-folder.js';
import { INPUT_OPTIONS, inputPaths, readFilters, selectSessions } from '../input/input.js';
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

/** `cctrail export`: writes the normalized JSON archive. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'write the normalized JSON archive (index.json + one file per session)',
  usage: 'export [paths…] -o DIR [--redact]',
  description: [
    'Reads transcripts and writes DIR/index.json (projects → sessions with title, first prompt, times,',
    'counts, tokens and duplicate-of) and one normalized file per session under DIR/sessions/. Nothing is',
    'dropped: every input line is an entry, a metadata record, or a diagnostic carrying its raw text.',
    'Files are written atomically and only when their bytes change, so a re-run over unchanged input',
    'rewrites nothing. With -o - the archive is streamed as NDJSON: one session per line, then the index.',
    'The files follow the JSON Schemas in the package (schema/index.schema.json, schema/session.schema.json).',
    'The archive holds the transcripts as written, secrets included, unless --redact is given (the same',
    'redaction as `cctrail report`).',
    '',
    'An archive never forgets: every transcript file read is kept byte for byte, compressed, under',
    'DIR/sources/ (only new bytes are added when a file grows), and a session whose transcripts are gone',
    '(Claude Code deletes them after cleanupPeriodDays) stays, marked "missing" with when it was last seen.',
    'A filtered export (-p, -s, --since) updates the sessions it selects and leaves the others as they are.',
    'Nothing is removed unless --prune is given. An archive is also an input: `cctrail report DIR`,',
    '`stats DIR`, `export DIR -o OTHER` read its kept sources; several archives given together are merged.',
    'With --redact no sources are kept (the archive is meant for sharing). With --sources-only no session files',
    'are written: the archive holds the kept transcripts, index.json and manifest.json (about a quarter of the',
    'input), and every command reads it as any archive; an archive made so stays so.',
  ].join('\n'),
  options: [
    {
      name: 'output',
      short: 'o',
      type: 'string',
      value: 'DIR',
      description: 'output folder, or - for NDJSON on stdout',
    },
    {
      name: 'redact',
      type: 'boolean',
      description:
        'replace secrets with [REDACTED:<kind>] as `report` does (off by default); keeps no sources',
    },
    {
      name: 'prune',
      type: 'boolean',
      description: 'remove the sessions whose transcripts are missing from the input (listed first)',
    },
    {
      name: 'sources-only',
      type: 'boolean',
      description: 'keep the transcripts and the index only, no session files (a quarter of the input)',
    },
    {
      name: 'force',
      type: 'boolean',
      description: 'write into a non-empty folder that is not an archive (its files are left as they are)',
    },
    ...INPUT_OPTIONS,
  ],
  examples: [
    { command: 'cctrail export -o ~/claude-archive', comment: 'everything under ~/.claude/projects, kept' },
    { command: 'cctrail export laptop-archive desktop-archive -o all', comment: 'merge two archives' },
    { command: 'cctrail export ~/.claude/projects/-home-me-app -o app', comment: 'one project' },
    {
      command: "cctrail export --since 7d -o - | jq -r 'select(.entries) | .id'",
      comment: 'last week as NDJSON',
    },
  ],
  async run({ options, positionals, io }) {
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
    const guard = toStdout ? null : guardRun(dir, [], cache, () => runner.close());
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
  },
};
