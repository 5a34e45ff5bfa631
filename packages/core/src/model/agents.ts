/**
 * What the 2026 formats add to sub-agents (FORMAT.md §13): workflow runs with their phases and agents, and the
 * answer of a background agent that arrives after its spawn returned.
 */

/** Where a background agent's answer came back. */
export interface AgentAnswer {
  /** `notification`: a `<task-notification>`/`<agent-notification>` user entry or queue record; `task-output`: a `TaskOutput` result. */
  via: 'notification' | 'task-output';
  /** Entry that carries the answer, null when it came as a metadata record (queue-operation). */
  entryUuid: string | null;
  /** Type of the record when the answer is a metadata record (`queue-operation`), else null. */
  record: string | null;
  timestamp: string | null;
  /** Status the answer reports (`completed`, `failed`, `killed`, …), as written; null when it names none. */
  status: string | null;
  /** First line of the summary or result the answer carries, at most 200 characters. */
  summary: string | null;
}

/** A phase of a workflow run, from its snapshot (`<session>/workflows/<runId>.json`). */
export interface WorkflowPhase {
  name: string;
  status: string | null;
}

/** A `Workflow` run: its snapshot, journal and agents (`<session>/subagents/workflows/<runId>/`). */
export interface WorkflowRun {
  runId: string;
  /** The run's task id (`Task ID: <taskId>` in the Workflow call's result), when known. */
  taskId: string | null;
  /** The Workflow call that started the run, null when none of the session's calls names it. */
  spawn: { toolUseId: string; entryUuid: string } | null;
  /** Run status from the snapshot, as written. */
  status: string | null;
  phases: WorkflowPhase[];
  /** Sidechain ids of the run's agents, in file order. */
  agents: string[];
  /** The snapshot file, null when it is not there. */
  snapshot: string | null;
  /** The journal file and its record count, null when it is not there. */
  journal: { file: string; records: number } | null;
}
