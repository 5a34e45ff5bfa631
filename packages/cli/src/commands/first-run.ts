import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { type OptionValues, stringOption } from '../command-line/args.js';
import type { Io } from '../command-line/command.js';
import { CliError } from '../command-line/errors.js';
import { defaultProjectsFolder } from '../input/input-paths.js';
import { retentionFacts, retentionNotice } from '../retention/notice.js';

/**
 * `cctrail` without a command: what people type first (`npx cctrail`). It builds the report of everything under
 * the default projects folder into `./cctrail-report`, as `cctrail report` would, and then says what to do next.
 */

/** Where the default run looked for transcripts, and why there. */
function lookedIn(env: NodeJS.ProcessEnv): string {
  const folder = defaultProjectsFolder(env);
  return env.CLAUDE_CONFIG_DIR ? `${folder} ($CLAUDE_CONFIG_DIR/projects)` : folder;
}

/**
 * Throws the error of a default run on a machine without transcripts where they are kept: it says where it
 * looked and what to pass instead.
 *
 * @param paths The positionals of the command line: when there are any, `report` checks them itself.
 * @param io For the environment.
 */
export function checkDefaultInput(paths: readonly string[], io: Pick<Io, 'env'>): void {
  if (paths.length > 0 || existsSync(defaultProjectsFolder(io.env))) return;
  throw new CliError(
    `no Claude Code transcripts found: looked in ${lookedIn(io.env)}, which does not exist`,
    {
      hint: [
        'Claude Code keeps them in ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects) on the machine it runs on.',
        'Pass the folder that holds them: `npx cctrail report <folder>` (a projects folder, one project folder, or .jsonl files).',
        'Run `cctrail --help` for every command.',
      ].join('\n'),
    },
  );
}

/** A word of a command line as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Options of the report that the next steps do not repeat: what a run does once, not what it builds. */
const NOT_REPEATED = new Set(['open', 'force', 'verbose', 'strict', 'output']);
/** Options that choose the sessions: the export and stats suggestions repeat these (and only these). */
const SELECTING = new Set(['project', 'session', 'since', 'until']);

/** The words of the options given, as a shell reads them back, for those `keep` keeps. */
function optionWords(options: OptionValues, keep: (name: string) => boolean): string[] {
  const words: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (!keep(name) || value === undefined || value === false) continue;
    if (value === true) words.push(`--${name}`);
    // A value that starts with "-" would be read as an option.
    for (const one of typeof value === 'string' ? [value] : Array.isArray(value) ? value : [])
      words.push(...(one.startsWith('-') ? [shellWord(`--${name}=${one}`)] : [`--${name}`, shellWord(one)]));
  }
  return words;
}

/**
 * The next steps printed after a default run built its report, then how long Claude Code keeps transcripts
 * (its settings as seen from the working directory) and how to keep more. Each command repeats the input paths,
 * the output folder and the options the run was given (`--title`, `-p`, …), so it works as it is and builds
 * the same report.
 *
 * @param indexHtml The report's index page, absolute.
 * @param io For the working directory and the environment.
 * @param given The run's input paths and its options, as parsed.
 */
export function nextSteps(
  indexHtml: string,
  io: Pick<Io, 'cwd' | 'env'>,
  given: { paths: readonly string[]; options?: OptionValues } = { paths: [] },
): string {
  const shown = relative(io.cwd, indexHtml);
  const page = shown.startsWith('..') ? indexHtml : shown;
  const options = given.options ?? {};
  const words = (list: readonly string[]) => list.map((word) => ` ${word}`).join('');
  const input = words(given.paths.map(shellWord));
  const output = stringOption(options, 'output');
  const outputWords = output === undefined ? [] : ['-o', shellWord(output)];
  const reportOptions = words([...outputWords, ...optionWords(options, (name) => !NOT_REPEATED.has(name))]);
  // A report meant for publishing keeps its secrets out, whatever this run was told.
  const published = words([
    ...outputWords,
    ...optionWords(options, (name) => !NOT_REPEATED.has(name) && name !== 'no-redact'),
  ]);
  const selecting = words(optionWords(options, (name) => SELECTING.has(name)));
  const same = `npx cctrail${input}${reportOptions}`;
  const publishing = words([
    ...(options.base === undefined ? ['--base', '/<repo>/'] : []),
    ...(options['short-home'] === true ? [] : ['--short-home']),
  ]);
  return [
    '',
    'Next steps:',
    `  open it          ${same} --open   (or open ${page} in a browser; it works from disk)`,
    `  refresh it       ${same}          (only sessions that changed are read again)`,
    `  publish it       npx cctrail report${input}${published}${publishing}   (secrets are redacted`,
    '                   by default; a GitHub Pages workflow: https://github.com/cctrail/cctrail/blob/main/docs/github-pages.yml)',
    `  archive, stats   npx cctrail export${input}${selecting} -o archive   ·   npx cctrail stats${input}${selecting}`,
    '  keep everything  npx cctrail hook install   (archive each session when it ends)',
    '',
    // archiveOnly: a first run has no archive yet.
    ...retentionNotice(retentionFacts(io, 0)),
    '',
  ].join('\n');
}
