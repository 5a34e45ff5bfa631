/**
 * Sub-agent runs counted once across files. A file that continues or copies another (a resume written to a new
 * file, a `/branch` copy, a duplicate) repeats its spawning calls and their results, and so lists the same runs:
 * the same sidechain id (`agent-<agentId>`, `task-<tool_use id>`). The agent's transcript is in one file's folder
 * only, so the other files list the run without it, reported by its spawn. As entries and API responses are
 * counted once across files, so is a run: once in the whole archive, from its transcript where any file holds it.
 */

/** A run as `runsOnce` sees it: its sidechain id and whether its transcript is there (entries). */
export interface RunOfFile {
  id: string;
  entries: number;
}

/** One file's runs, for `runsOnce`. */
export interface FileRuns<R extends RunOfFile> {
  /** Where the run ids are unique: the project folder (a conversation never leaves its project). */
  scope: string | null;
  runs: readonly R[];
  /** False for a duplicate copy: its runs are its original's, counted there (but its transcripts are there). */
  counted: boolean;
}

/**
 * The runs each file counts, each run once across files: in the first counted file that lists it (in the order
 * given), as the first file that holds its transcript has it (so a run reported by its spawn in one file and
 * whose transcript another file holds is counted from that transcript, never at its report as well).
 *
 * @param files Per file, its runs, in listing order.
 * @returns Per file, in the same order, the runs it counts (none for a file that is not counted).
 */
export function runsOnce<R extends RunOfFile>(files: readonly FileRuns<R>[]): R[][] {
  const key = (scope: string | null, run: R) => `${scope ?? ''}\u0000${run.id}`;
  const transcripts = new Map<string, R>();
  for (const file of files)
    for (const run of file.runs) {
      const k = key(file.scope, run);
      if (run.entries > 0 && !transcripts.has(k)) transcripts.set(k, run);
    }
  const seen = new Set<string>();
  return files.map((file) => {
    const out: R[] = [];
    if (!file.counted) return out;
    for (const run of file.runs) {
      const k = key(file.scope, run);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(transcripts.get(k) ?? run);
    }
    return out;
  });
}
