/**
 * Workflow run files (FORMAT.md §13.1): the run snapshot `<session>/workflows/<runId>.json` (task id, status,
 * phases) and the run journal `<session>/subagents/workflows/<runId>/journal.jsonl`. Both are the run's metadata,
 * not transcripts: they are read loosely here and never as entries.
 */
import type { AgentMetaSource } from '../source.js';

/** What the files of one run say. */
export interface RunFiles {
  runId: string;
  taskId: string | null;
  status: string | null;
  phases: { name: string; status: string | null }[];
  snapshot: string | null;
  journal: { file: string; records: number } | null;
}

/**
 * Reads the workflow files of a session into runs, by run id (the snapshot's name, the journal's folder).
 *
 * @param files Snapshot and journal files with their text.
 */
export function readWorkflowRuns(files: readonly AgentMetaSource[]): Map<string, RunFiles> {
  const runs = new Map<string, RunFiles>();
  const run = (runId: string): RunFiles => {
    let found = runs.get(runId);
    if (!found) {
      found = { runId, taskId: null, status: null, phases: [], snapshot: null, journal: null };
      runs.set(runId, found);
    }
    return found;
  };
  for (const file of files) {
    const parts = file.path.replaceAll('\\', '/').split('/');
    const name = parts[parts.length - 1] ?? '';
    if (name === 'journal.jsonl') {
      const records = file.text.split('\n').filter((line) => line.trim() !== '').length;
      run(parts[parts.length - 2] ?? file.path).journal = { file: file.path, records };
      continue;
    }
    const snapshot = parseObject(file.text);
    const target = run(text(snapshot?.runId) ?? name.replace(/\.json$/, ''));
    target.snapshot = file.path;
    if (!snapshot) continue;
    target.taskId = text(snapshot.taskId) ?? text(snapshot.task_id);
    target.status = text(snapshot.status) ?? text(snapshot.state);
    const phases = Array.isArray(snapshot.phases) ? snapshot.phases : [];
    for (const [index, phase] of phases.entries()) {
      const fields = isObject(phase) ? phase : {};
      target.phases.push({
        name:
          text(fields.name) ?? text(fields.title) ?? text(fields.id) ?? text(phase) ?? `phase ${index + 1}`,
        status: text(fields.status) ?? text(fields.state),
      });
    }
  }
  return runs;
}

/** The run id of a workflow agent file (`…/subagents/workflows/<runId>/agent-<id>.jsonl`), or null. */
export function workflowRunOf(path: string): string | null {
  return /[\\/]subagents[\\/]workflows[\\/]([^\\/]+)[\\/][^\\/]+$/.exec(path)?.[1] ?? null;
}

function parseObject(source: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(source);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
