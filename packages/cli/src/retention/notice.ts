import { homedir } from 'node:os';
import { sep } from 'node:path';
import { CLEANUP_KEY, type Retention, readRetention } from './retention.js';

/** The value the notices suggest: a hundred years, i.e. never in practice. */
const KEEP_DAYS = 36500;

/** From this many days on, retention is long enough that the notices give no advice. */
const LONG_ENOUGH_DAYS = 3650;

/** What the notices say: the retention in force, and what the caller knows of the archive. */
export interface RetentionFacts extends Retention {
  /**
   * Sessions that exist only in the archive (their transcripts are gone): passed by the caller that knows
   * the archive; 0 where it is unknown.
   */
  archiveOnly: number;
  /** For writing paths under the home folder as `~/…`. */
  env?: NodeJS.ProcessEnv;
  /** cctrail's SessionEnd hook is installed: the notices do not suggest installing it. */
  hookInstalled?: boolean;
}

/**
 * Writes a path under the home folder as `~/…` (for display only).
 *
 * @param path Absolute path.
 * @param env For `HOME`.
 */
export function displayPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  if (home && home !== sep && path.startsWith(home + sep)) return `~${sep}${path.slice(home.length + 1)}`;
  return path;
}

function daysText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

function sessionsText(count: number): string {
  return count === 1 ? '1 session exists' : `${count} sessions exist`;
}

/** The sentence saying how long Claude Code keeps transcripts and why. */
function keepsSentence(facts: RetentionFacts): string {
  const user = displayPath(facts.userFile, facts.env);
  const why =
    facts.source === null
      ? `default; ${user} has no ${CLEANUP_KEY}`
      : `${CLEANUP_KEY} in ${displayPath(facts.source.file, facts.env)}`;
  const archived = facts.archiveOnly > 0 ? ` ${sessionsText(facts.archiveOnly)} only in the archive.` : '';
  return `Claude Code keeps ${daysText(facts.days)} of transcripts (${why}).${archived}`;
}

/** The edit that keeps transcripts longer: in the file in force, else in the user settings. */
function editSentence(facts: RetentionFacts): string {
  const setting = `"${CLEANUP_KEY}": ${KEEP_DAYS}`;
  if (facts.source === null) return `add ${setting} to ${displayPath(facts.userFile, facts.env)}`;
  const file = displayPath(facts.source.file, facts.env);
  if (facts.source.scope === 'managed') return `ask whoever manages ${file} for ${setting}`;
  return `set ${setting} in ${file}`;
}

/**
 * The notice about Claude Code's transcript retention, as lines to print: how many days it keeps and which
 * file says so, how many sessions only the archive still holds, and the exact edit (or `cctrail hook install`)
 * that keeps more. A value of 0 gets a warning of its own: before Claude Code 2.1.89 it deleted every
 * transcript at startup and wrote no new ones; from 2.1.89 on it is rejected as invalid. Files that cannot be
 * used come first, one line each.
 *
 * @param facts The retention read from the settings (`readRetention`) and `archiveOnly`.
 * @returns One to four lines, without newlines.
 * @example
 * ```ts
 * retentionNotice({ ...readRetention({ cwd, env }), archiveOnly: 0 });
 * // ['Claude Code keeps 30 days of transcripts (default; ~/.claude/settings.json has no cleanupPeriodDays).',
 * //  'To keep more, add "cleanupPeriodDays": 36500 to ~/.claude/settings.json, or run `cctrail hook install` …']
 * ```
 */
export function retentionNotice(facts: RetentionFacts): string[] {
  const lines = facts.problems.map((problem) => `Warning: ${problem}`);
  if (facts.days === 0 && facts.source !== null) {
    lines.push(
      `Warning: ${CLEANUP_KEY} is 0 in ${displayPath(facts.source.file, facts.env)}. Claude Code before ` +
        '2.1.89 then deletes every transcript when it starts and writes no new ones; 2.1.89 and later reject ' +
        `the value as invalid. To keep transcripts, ${editSentence(facts)}.`,
    );
    return lines;
  }
  lines.push(keepsSentence(facts));
  if (facts.days < LONG_ENOUGH_DAYS) {
    const hook = facts.hookInstalled
      ? ''
      : ', or run `cctrail hook install` to archive every session when it ends';
    lines.push(`To keep more, ${editSentence(facts)}${hook}.`);
  }
  return lines;
}

/**
 * The retention notice in one line, for the end of a command's output: how long transcripts are kept and,
 * when that is not long, the shortest fix; settings files that could not be used are counted, and
 * `cctrail hook status` lists them.
 *
 * @param facts As for `retentionNotice`.
 */
export function retentionLine(facts: RetentionFacts): string {
  const count = facts.problems.length;
  const problems =
    count === 0
      ? ''
      : ` Warning: ${count === 1 ? '1 settings file' : `${count} settings files`} could not be used (\`cctrail hook status\` says why).`;
  if (facts.days === 0 && facts.source !== null) {
    return `Warning: ${CLEANUP_KEY} is 0 in ${displayPath(facts.source.file, facts.env)}: Claude Code may delete every transcript; ${editSentence(facts)}.${problems}`;
  }
  const keeps = keepsSentence(facts);
  const hook = facts.hookInstalled ? '' : ', or `cctrail hook install`';
  const advice = facts.days >= LONG_ENOUGH_DAYS ? '' : ` Keep more: ${editSentence(facts)}${hook}.`;
  return `${keeps}${advice}${problems}`;
}

/**
 * The facts the notices need, read for a command: the retention of Claude Code's settings as seen from the
 * working directory, and what the caller knows of the archive.
 *
 * @param io The working directory (for project settings) and the environment.
 * @param archiveOnly Sessions that exist only in the archive; 0 where the caller does not know.
 */
export function retentionFacts(
  io: { cwd: string; env: NodeJS.ProcessEnv },
  archiveOnly: number,
): RetentionFacts {
  return { ...readRetention({ cwd: io.cwd, env: io.env }), archiveOnly, env: io.env };
}
