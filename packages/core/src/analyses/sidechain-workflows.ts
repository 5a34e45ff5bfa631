/**
 * Workflow runs (FORMAT.md §13.1): agents under `<session>/subagents/workflows/<runId>/` carry no `toolUseId`;
 * they are linked to the `Workflow` call whose result names their run, by `toolUseResult.runId`, or by the
 * `Task ID: <taskId>` of its text matched with the run snapshot's `taskId`.
 */
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { WorkflowRun } from '../model/agents.js';
import type { Entry } from '../model/entry.js';
import type { Sidechain } from '../model/session.js';
import type { RunFiles } from '../read/workflow-runs.js';
import { asRecord, stringField } from './sidechain-spawns.js';

/** The tools that start a workflow run. */
const WORKFLOW_TOOLS = new Set(['Workflow']);

/**
 * Run id → the tool_use id of the Workflow call that started it.
 *
 * @param entries The session's entries.
 * @param tools Its tool calls.
 * @param runs The runs read from the workflow files.
 */
export function workflowSpawns(
  entries: readonly Entry[],
  tools: ToolIndex,
  runs: ReadonlyMap<string, RunFiles>,
): Map<string, string> {
  const out = new Map<string, string>();
  const runOfTask = new Map<string, string>();
  for (const run of runs.values()) if (run.taskId) runOfTask.set(run.taskId, run.runId);
  for (const call of tools.calls) {
    if (!WORKFLOW_TOOLS.has(call.name) || call.callUuid === null) continue;
    const at = tools.resultEntry.get(call.id);
    if (at === undefined) continue;
    const result = entries[at]!;
    const fields = asRecord(result.toolUseResult);
    const taskId = stringField(fields.taskId) ?? taskIdInText(result, call.id);
    const runId = stringField(fields.runId) ?? (taskId === null ? null : (runOfTask.get(taskId) ?? null));
    if (runId !== null && !out.has(runId)) out.set(runId, call.id);
  }
  return out;
}

/** `Task ID: <id>` in the text of a tool result. */
function taskIdInText(result: Entry, toolUseId: string): string | null {
  for (const block of result.content) {
    if (block.type !== 'tool_result' || block.toolUseId !== toolUseId) continue;
    for (const item of block.content) {
      if (item.type !== 'text') continue;
      const match = /Task ID:\s*([\w.-]+)/.exec(item.text);
      if (match) return match[1]!;
    }
  }
  return null;
}

/**
 * The session's workflow runs: every run with files or agents, its spawn, phases and agents.
 *
 * @param runs The runs read from the workflow files.
 * @param spawns Run id → spawning Workflow call.
 * @param sidechains The session's sidechains (workflow agents carry `workflowRun`).
 * @param entries The session's entries.
 * @param tools Its tool calls.
 */
export function workflowRuns(
  runs: ReadonlyMap<string, RunFiles>,
  spawns: ReadonlyMap<string, string>,
  sidechains: readonly Sidechain[],
  entries: readonly Entry[],
  tools: ToolIndex,
): WorkflowRun[] {
  const agents = new Map<string, string[]>();
  for (const s of sidechains) {
    if (s.workflowRun === undefined) continue;
    // A run that failed or was stopped takes its agents with it.
    if (
      s.status === 'completed' &&
      /fail|error|kill|stop|cancel/i.test(runs.get(s.workflowRun)?.status ?? '')
    )
      s.status = 'error';
    const list = agents.get(s.workflowRun) ?? [];
    list.push(s.id);
    agents.set(s.workflowRun, list);
  }
  const ids = [...new Set([...runs.keys(), ...agents.keys(), ...spawns.keys()])].sort();
  return ids.map((runId) => {
    const files = runs.get(runId);
    const toolUseId = spawns.get(runId) ?? null;
    const at = toolUseId === null ? undefined : tools.callEntry.get(toolUseId);
    return {
      runId,
      taskId: files?.taskId ?? null,
      spawn: toolUseId === null || at === undefined ? null : { toolUseId, entryUuid: entries[at]!.uuid },
      status: files?.status ?? null,
      phases: files?.phases ?? [],
      agents: agents.get(runId) ?? [],
      snapshot: files?.snapshot ?? null,
      journal: files?.journal ?? null,
    };
  });
}
