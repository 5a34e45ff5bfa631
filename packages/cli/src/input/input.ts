import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Diagnostic } from '@cctrail/core';
import { type DiscoveredSession, discover } from '@cctrail/core/node';
import {
  archivedSessions,
  type FromArchive,
  isArchiveFolder,
  type KeptFiles,
  oneCopyEach,
  sessionKey,
} from '../archive/archive-input.js';
import { listOption, type OptionValues, stringOption } from '../command-line/args.js';
import type { Io } from '../command-line/command.js';
import { CliError, fsReason } from '../command-line/errors.js';
import { displayRoot } from '../terminal/display.js';
import { inputPaths } from './input-paths.js';
import { skippedPathDiagnostics, skippedPathLines } from './skipped-paths.js';

/** Which sessions to read, from the command line. */
export interface Filters {
  projects: string[];
  sessions: string[];
  /** Inclusive bounds in epoch milliseconds. */
  since: number | null;
  until: number | null;
}

/** One session chosen for processing. */
export interface SelectedSession {
  discovered: DiscoveredSession;
  /** The input root: paths in the output are relative to it (see `displayPath`). */
  root: string;
  /** Set when the session is read from an archive's kept sources (an archive given as input, or written into). */
  archive?: FromArchive;
  /** Files of a session read from its input that only the archive written into still has. */
  kept?: KeptFiles;
}

/** The sessions selected by the paths and filters of a command line. */
export interface Selection {
  /** The common root of the inputs; output paths are relative to it. */
  root: string;
  sessions: SelectedSession[];
  filters: Filters;
  /** Input paths that were not read, as `skipped-path` diagnostics. */
  skipped?: Diagnostic[];
  /** The input paths, absolute (an archive's transcripts found nowhere under them are missing). */
  inputs?: string[];
  /** Every session found in the inputs before the filters, by `sessionKey`. */
  found?: ReadonlySet<string>;
}

/**
 * Reads the filter options of a command line. Bad dates are usage errors.
 *
 * @param options Parsed options.
 * @param now The current time, for relative dates such as `7d`.
 */
export function readFilters(options: OptionValues, now: number = Date.now()): Filters {
  const since = stringOption(options, 'since');
  const until = stringOption(options, 'until');
  const filters: Filters = {
    projects: listOption(options, 'project').map((p) => p.toLowerCase()),
    sessions: listOption(options, 'session'),
    since: since === undefined ? null : parseDate(since, 'since', now),
    until: until === undefined ? null : parseDate(until, 'until', now),
  };
  if (filters.since !== null && filters.until !== null && filters.since > filters.until) {
    throw new CliError(`--since ${since} is after --until ${until}`);
  }
  return filters;
}

/**
 * Parses a date option: `YYYY-MM-DD` (a whole UTC day: its start for `--since`, its end for `--until`), an
 * ISO-8601 time, or a duration before now (`30m`, `12h`, `7d`, `2w`).
 */
export function parseDate(text: string, bound: 'since' | 'until', now: number): number {
  const relativeMatch = /^(\d+)\s*(m|h|d|w)$/i.exec(text.trim());
  if (relativeMatch) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
      relativeMatch[2]!.toLowerCase() as 'm' | 'h' | 'd' | 'w'
    ];
    return now - Number(relativeMatch[1]) * unit;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00.000Z`);
    if (!Number.isNaN(start)) return bound === 'since' ? start : start + 86_400_000 - 1;
  }
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new CliError(`--${bound} ${text} is not a date`, {
      hint: 'Use 2025-01-31, 2025-01-31T12:00:00Z, or a duration such as 7d, 12h, 30m, 2w.',
    });
  }
  return time;
}

/** Whether a built session falls inside the time filters (sessions without timestamps never match one). */
export function inTimeRange(
  session: { startedAt: string | null; endedAt: string | null },
  filters: Pick<Filters, 'since' | 'until'>,
): boolean {
  if (filters.since === null && filters.until === null) return true;
  const start = session.startedAt ? Date.parse(session.startedAt) : Number.NaN;
  const end = session.endedAt ? Date.parse(session.endedAt) : start;
  if (Number.isNaN(start) || Number.isNaN(end)) return false;
  if (filters.since !== null && end < filters.since) return false;
  if (filters.until !== null && start > filters.until) return false;
  return true;
}

/**
 * Finds the sessions a command should read: discovers transcripts under the paths (or the default folder),
 * then applies `--project`, `--session` and a first `--since` cut on file times (the exact time filter needs
 * the built session: see `inTimeRange`).
 *
 * Throws a `CliError` (exit 2) when a path is missing or unreadable, when a file given by name is not a
 * `.jsonl` transcript, or when no transcript is found at all.
 *
 * @param paths Paths from the command line; empty for the default folder.
 * @param filters From `readFilters`.
 * @param io For the environment and the working directory.
 */
export async function selectSessions(paths: readonly string[], filters: Filters, io: Io): Promise<Selection> {
  const usingDefault = paths.length === 0;
  const inputs = inputPaths(paths, io);

  for (const input of inputs) {
    const info = await stat(input).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      throw new CliError(`cannot read ${shown(input, io)}: ${fsReason(info)}`, {
        hint: usingDefault
          ? 'Give the folder of your transcripts as an argument, or set CLAUDE_CONFIG_DIR.'
          : undefined,
      });
    }
    if (info.isFile() && !input.endsWith('.jsonl')) {
      throw new CliError(`${shown(input, io)} is not a Claude Code transcript (expected a .jsonl file)`);
    }
  }

  const archives: string[] = [];
  const plain: string[] = [];
  for (const input of inputs) ((await isArchiveFolder(input)) ? archives : plain).push(input);
  const discovery = await discover(plain);
  const problem = discovery.unreadable[0];
  if (problem) throw new CliError(`cannot read ${shown(problem.path, io)}: ${problem.reason}`);
  for (const line of skippedPathLines(discovery.skipped, (path) => shown(path, io)))
    io.stderr.write(`${line}\n`);

  const root = displayRoot(
    plain.length > 0 ? plain : inputs,
    discovery.projects.map((p) => p.dir),
  );

  const all: SelectedSession[] = [];
  for (const project of discovery.projects) {
    for (const session of project.sessions) all.push({ discovered: session, root });
  }
  for (const archive of archives) {
    const sessions = await archivedSessions(archive);
    if (sessions.length === 0) {
      throw new CliError(`${shown(archive, io)} is a cctrail archive without kept transcripts`, {
        hint: 'Archives written with --redact, by `cctrail report`, or by cctrail before 0.2 keep no sources; give the transcripts instead.',
      });
    }
    all.push(...sessions);
  }
  if (all.length === 0) {
    throw new CliError(`no Claude Code transcripts found in ${inputs.map((i) => shown(i, io)).join(', ')}`, {
      hint: 'Give a projects folder (~/.claude/projects), one project folder, or .jsonl session files.',
    });
  }
  const unique = oneCopyEach(all);

  const selected: SelectedSession[] = [];
  for (const candidate of unique) {
    if (!matchesIds(candidate.discovered, filters)) continue;
    if (filters.since !== null && (await lastModified(candidate.discovered)) < filters.since) continue;
    selected.push(candidate);
  }
  return {
    root,
    sessions: selected,
    filters,
    skipped: skippedPathDiagnostics(discovery.skipped, root),
    inputs,
    found: new Set(unique.map((s) => sessionKey(s.discovered.project, s.discovered.id))),
  };
}

/** Whether a session passes the `--project` and `--session` filters. */
export function matchesIds(session: DiscoveredSession, filters: Filters): boolean {
  if (
    filters.projects.length > 0 &&
    !filters.projects.some((p) => session.project.toLowerCase().includes(p))
  ) {
    return false;
  }
  if (filters.sessions.length > 0 && !filters.sessions.some((s) => session.id.startsWith(s))) return false;
  return true;
}

/** The newest modification time of a session's files: transcripts are append-only, so nothing in them is newer. */
async function lastModified(session: DiscoveredSession): Promise<number> {
  let newest = 0;
  for (const file of [session.mainFile, ...session.agentFiles]) {
    if (file === null) continue;
    const info = await stat(file).catch(() => null);
    // Unknown time: keep the session, the exact filter runs later.
    newest = Math.max(newest, info ? info.mtimeMs : Number.POSITIVE_INFINITY);
  }
  return newest;
}

function shown(path: string, io: Io): string {
  const rel = relative(io.cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || rel.length > path.length ? path : rel;
}
