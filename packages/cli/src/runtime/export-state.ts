import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveIndex, ArchiveSessionSummary } from '@cctrail/core/archive';
import { writeIfChanged } from '../files/atomic-write.js';
import type { FileStat } from './file-stats.js';

/**
 * What an archive folder remembers between exports, so unchanged sessions are not rebuilt: for each session
 * file, a fingerprint of its inputs (size and modification time of every transcript, the cctrail version and
 * the export options). Kept in `DIR/.cctrail-state.json`.
 */
const STATE_FILE = '.cctrail-state.json';

interface StateFile {
  schemaVersion: 1;
  sessions: Record<string, Remembered>;
}

/** What is remembered of a session file written: its inputs' fingerprint and what writing it found. */
interface Remembered {
  fingerprint: string;
  cwd: string | null;
  /** Secrets redacted and home paths shortened in it. */
  redacted?: number;
  shortened?: number;
  /** The secrets redacted, by rule (absent in states written before it was kept). */
  byRule?: Record<string, number>;
}

/** A session that need not be rebuilt: its line in the previous index and its project's working directory. */
export interface Reusable {
  summary: ArchiveSessionSummary;
  cwd: string | null;
  redacted: number;
  shortened: number;
  byRule: Record<string, number>;
}

/** What writing a session file found: the privacy counts remembered with it. */
export interface PrivacyTally {
  redacted: number;
  shortened: number;
  byRule: Record<string, number>;
}

/**
 * The fingerprint of a session's inputs: its files' sizes and modification times, named as shown (see
 * `sourceStats`), and what else the output depends on.
 *
 * @param context Anything else the output depends on (version, options, archive path).
 * @param files The files, as `sourceStats` gives them.
 */
export function fingerprint(context: readonly unknown[], files: readonly FileStat[]): string {
  const parts: unknown[] = [...context];
  for (const { file, size, mtimeMs } of files) parts.push([file, size, mtimeMs]);
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The incremental state of one archive folder. */
export class ExportState {
  readonly #dir: string;
  #previous: Promise<{ state: StateFile | null; summaries: Map<string, ArchiveSessionSummary> }> | null =
    null;
  readonly #next: StateFile = { schemaVersion: 1, sessions: {} };

  readonly #index: Promise<ArchiveIndex | null> | null;

  /**
   * @param dir The archive folder.
   * @param index Its `index.json`, when the caller has read it already (else it is read here).
   */
  constructor(dir: string, index?: ArchiveIndex | null) {
    this.#dir = dir;
    this.#index = index === undefined ? null : Promise.resolve(index);
  }

  /** The previous state and index, read once. Unreadable or foreign files count as no state. */
  #load() {
    this.#previous ??= (async () => {
      const state = await readJson<StateFile>(join(this.#dir, STATE_FILE));
      const index = await (this.#index ?? readJson<ArchiveIndex>(join(this.#dir, 'index.json')));
      const summaries = new Map<string, ArchiveSessionSummary>();
      for (const project of Array.isArray(index?.projects) ? index.projects : []) {
        for (const summary of Array.isArray(project?.sessions) ? project.sessions : []) {
          if (typeof summary?.file === 'string') summaries.set(summary.file, summary);
        }
      }
      return { state: state?.schemaVersion === 1 && state.sessions ? state : null, summaries };
    })();
    return this.#previous;
  }

  /**
   * The previous result for a session file when its fingerprint is unchanged and the file is still there.
   *
   * @param file Archive path of the session file.
   * @param print Fingerprint of its inputs now.
   * @param needsFile Whether the session file must be there (not in an archive of sources only).
   */
  async reuse(file: string, print: string, needsFile = true): Promise<Reusable | null> {
    const { state, summaries } = await this.#load();
    const known = state?.sessions[file];
    const summary = summaries.get(file);
    if (!known || known.fingerprint !== print || !summary) return null;
    // Written before secrets were counted by rule: the session is exported again to count them.
    if (known.redacted && known.byRule === undefined) return null;
    const exists = needsFile ? await stat(join(this.#dir, ...file.split('/'))).catch(() => null) : null;
    return !needsFile || exists?.isFile()
      ? {
          summary,
          cwd: known.cwd,
          redacted: known.redacted ?? 0,
          shortened: known.shortened ?? 0,
          byRule: known.byRule ?? {},
        }
      : null;
  }

  /** Records the fingerprint of a session file written (or kept) in this run, and its privacy counts. */
  remember(file: string, print: string, cwd: string | null, counts?: PrivacyTally): void {
    this.#next.sessions[file] = {
      fingerprint: print,
      cwd,
      redacted: counts?.redacted ?? 0,
      shortened: counts?.shortened ?? 0,
      ...(counts && Object.keys(counts.byRule).length > 0 ? { byRule: counts.byRule } : {}),
    };
  }

  /** Writes the state of this run (atomically, only when it changed). */
  async save(): Promise<void> {
    await this.#load();
    const sorted: StateFile = { schemaVersion: 1, sessions: {} };
    for (const file of Object.keys(this.#next.sessions).sort())
      sorted.sessions[file] = this.#next.sessions[file]!;
    await writeIfChanged(join(this.#dir, STATE_FILE), `${JSON.stringify(sorted, null, 1)}\n`);
  }
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}
