/**
 * The files a session's folder (`<project>/<sessionId>/`) holds: its agent transcripts and sidecars below
 * `subagents/` (flat or nested, workflow runs included) and its workflow run snapshots (FORMAT.md §13).
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { plainName } from './gzip-names.js';
import { listFolder, type ScanScope } from './skipped-paths.js';

/** Files of a session folder that belong to the session: `subagents/**` and the workflow snapshots. */
export async function sessionFolderFiles(sessionDir: string, scope: ScanScope): Promise<string[]> {
  const [agents, runs] = await Promise.all([
    walkFiles(join(sessionDir, 'subagents'), scope),
    listFolder(join(sessionDir, 'workflows'), scope, true),
  ]);
  const snapshots = runs
    .filter((e) => e.isFile() && plainName(e.name).endsWith('.json'))
    .map((e) => join(sessionDir, 'workflows', e.name));
  return snapshots.length === 0 ? agents : [...agents, ...snapshots.sort(compare)];
}

/**
 * A workflow run's snapshot (`workflows/<runId>.json`) or journal (`subagents/workflows/<runId>/journal.jsonl`).
 *
 * @param path The file's path.
 * @param name The name it stands for (without `.gz`).
 */
export function isWorkflowFile(path: string, name: string): boolean {
  if (name === 'journal.jsonl') return true;
  return name.endsWith('.json') && !name.endsWith('.meta.json') && basename(dirname(path)) === 'workflows';
}

/** All files below a folder, iteratively (no recursion over depth; each folder once, links included). */
async function walkFiles(root: string, scope: ScanScope): Promise<string[]> {
  const out: string[] = [];
  const stack = [root];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const real = await realFolder(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    const entries = await listFolder(dir, scope, dir === root);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) out.push(path);
    }
  }
  return out.sort(compare);
}

async function realFolder(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

/** Byte order of two paths (the order every list of files is kept in). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
