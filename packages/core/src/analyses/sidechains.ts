/**
 * Sidechains: sub-agent conversations in all three storage eras (FORMAT.md §8) — inline `isSidechain` lines
 * (1.0.x), flat `agent-<id>.jsonl` files (2.0.x) and `<session>/subagents/` files with `.meta.json` (2.1.x) —
 * each linked to the Task/Agent call that spawned it, with its agent type, depth, parallel group and status.
 */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { Entry } from '../model/entry.js';
import type { Sidechain, SidechainLink } from '../model/session.js';
import { firstText } from '../normalize/prompt-text.js';
import type { AgentMeta } from '../read/agent-meta.js';
import type { FileSpan } from '../read/session-reader.js';
import { workflowRunOf } from '../read/workflow-runs.js';

import { inlineSidechains } from './inline-sidechains.js';
import { finishSidechains } from './sidechain-finish.js';
import {
  asRecord,
  attachSpawn,
  guessStorage,
  newSidechain,
  pickType,
  SPAWN_TOOLS,
  stringField,
} from './sidechain-spawns.js';

/**
 * Finds and links every sidechain. Sets `Entry.sidechain`, the sidechain actors (role reversal) and the
 * `parent` of each sidechain root to its spawning entry.
 */
export function findSidechains(
  dag: Dag,
  files: readonly FileSpan[],
  metas: ReadonlyMap<string, AgentMeta>,
  tools: ToolIndex,
  diagnostics: Diagnostic[],
  workflowSpawns: ReadonlyMap<string, string> = new Map(),
): Sidechain[] {
  const { entries } = dag;
  const sidechains: Sidechain[] = [];
  const linkedCalls = new Set<string>();
  const resultByAgentId = agentResults(entries, tools);
  const progressByAgentId = agentProgress(entries);

  // Agent files: one sidechain each.
  for (const file of files) {
    if (file.role !== 'agent' || file.end === file.first) continue;
    const agentId = file.agentId ?? stringField(entries[file.first]!.extra.agentId) ?? file.path;
    const meta = metas.get(agentId);
    const sidechain = newSidechain(`agent-${agentId}`, agentId, file.storage ?? 'flat', file.path);
    const runId = workflowRunOf(file.path);
    if (runId !== null) sidechain.workflowRun = runId;
    let root = -1;
    for (let i = file.first; i < file.end; i++) {
      entries[i]!.sidechain = sidechain.id;
      if (root === -1 && dag.parent[i] === -1) root = i;
    }
    if (root === -1) root = file.first;
    sidechain.rootUuid = entries[root]!.uuid;

    let spawn: string | null = null;
    let link: SidechainLink = 'none';
    if (resultByAgentId.has(agentId)) [spawn, link] = [resultByAgentId.get(agentId)!, 'agent-id'];
    else if (meta?.toolUseId && tools.callEntry.has(meta.toolUseId))
      [spawn, link] = [meta.toolUseId, 'meta-tool-use-id'];
    else if (progressByAgentId.has(agentId))
      [spawn, link] = [progressByAgentId.get(agentId)!, 'agent-progress'];
    else if (runId !== null && workflowSpawns.has(runId))
      [spawn, link] = [workflowSpawns.get(runId)!, 'workflow-run'];
    if (spawn !== null && !tools.callEntry.has(spawn)) spawn = null;

    if (agentId.startsWith('acompact')) {
      sidechain.role = 'compaction';
      sidechain.agentType = 'compaction';
    } else if (spawn !== null) {
      linkedCalls.add(spawn);
      attachSpawn(sidechain, spawn, link, tools, entries, root);
    } else if (isWarmup(entries, file)) {
      sidechain.role = 'warmup';
      sidechain.agentType = 'warmup';
    } else {
      sidechain.role = 'orphan';
      diagnostics.push(
        diagnostic('agent-not-spawned', file.path, null, {
          message: `Agent ${agentId} was not spawned by any Task/Agent call of this session.`,
        }),
      );
    }
    if (meta?.agentType && sidechain.role !== 'compaction')
      sidechain.agentType = pickType(sidechain, meta.agentType);
    sidechain.description ??= meta?.description ?? null;
    if (meta?.spawnDepth && sidechain.spawn === null) sidechain.depth = meta.spawnDepth;
    sidechains.push(sidechain);
  }

  // Task results naming an agent whose file is not there.
  const present = new Set(sidechains.map((s) => s.agentId));
  for (const [agentId, toolUseId] of resultByAgentId) {
    if (present.has(agentId) || linkedCalls.has(toolUseId)) continue;
    const call = entries[tools.callEntry.get(toolUseId) ?? -1];
    diagnostics.push(
      diagnostic('missing-agent-file', call?.source.file ?? null, call?.source.line ?? null, {
        message: `Agent ${agentId} was spawned by ${toolUseId} but its transcript file is not there.`,
      }),
    );
    const sidechain = newSidechain(`agent-${agentId}`, agentId, guessStorage(call), null);
    if (tools.callEntry.has(toolUseId)) attachSpawn(sidechain, toolUseId, 'agent-id', tools, entries, -1);
    sidechain.status = spawnFailed(toolUseId, entries, tools) ? 'failed' : 'missing';
    linkedCalls.add(toolUseId);
    sidechains.push(sidechain);
  }

  sidechains.push(...inlineSidechains(dag, files, tools, linkedCalls, diagnostics));

  // Task/Agent calls no sidechain was found for.
  for (const [id, at] of tools.callEntry) {
    const call = entries[at]!;
    const block = call.content.find((b) => b.type === 'tool_use' && b.id === id);
    if (block?.type !== 'tool_use' || !SPAWN_TOOLS.has(block.name) || linkedCalls.has(id)) continue;
    const failed = spawnFailed(id, entries, tools);
    diagnostics.push(
      diagnostic(failed ? 'spawn-failed' : 'task-without-sidechain', call.source.file, call.source.line, {
        uuid: call.uuid,
        message: failed
          ? `${block.name} call ${id} failed (its result is an error); no agent ran.`
          : `${block.name} call ${id} has no sidechain in the session.`,
      }),
    );
    const sidechain = newSidechain(`task-${id}`, null, guessStorage(call), null);
    attachSpawn(sidechain, id, 'none', tools, entries, -1);
    sidechain.status = failed ? 'failed' : 'missing';
    sidechains.push(sidechain);
  }

  finishSidechains(sidechains, entries, tools);
  for (const sidechain of sidechains) {
    if (sidechain.status !== 'incomplete') continue;
    diagnostics.push(
      diagnostic('sidechain-incomplete', sidechain.file, null, {
        message: `Sub-agent ${sidechain.agentId ?? sidechain.id} (${sidechain.agentType}) did not finish: its call has no result or it stopped on an open tool call.`,
      }),
    );
  }
  return sidechains;
}

/** A spawn whose result is an error (interrupted, rejected): no agent ever ran. */
function spawnFailed(toolUseId: string, entries: readonly Entry[], tools: ToolIndex): boolean {
  const at = tools.resultEntry.get(toolUseId);
  if (at === undefined) return false;
  const result = entries[at]!;
  return result.content.some((b) => b.type === 'tool_result' && b.toolUseId === toolUseId && b.isError);
}

/** agentId → tool_use id, from `toolUseResult.agentId` on Task/Agent results. */
function agentResults(entries: readonly Entry[], tools: ToolIndex): Map<string, string> {
  const out = new Map<string, string>();
  for (const [toolUseId, at] of tools.resultEntry) {
    const agentId = stringField(asRecord(entries[at]!.toolUseResult).agentId);
    if (agentId && !out.has(agentId)) out.set(agentId, toolUseId);
  }
  return out;
}

/** agentId → tool_use id, from `progress` lines of type `agent_progress`. */
function agentProgress(entries: readonly Entry[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'progress' || entry.subtype !== 'agent_progress') continue;
    const agentId = stringField(asRecord(entry.extra.data).agentId);
    const toolUseId = stringField(entry.extra.parentToolUseID);
    if (agentId && toolUseId && !out.has(agentId)) out.set(agentId, toolUseId);
  }
  return out;
}

/** A start-up agent: its first prompt is "Warmup", or it holds no prompt at all (an answer with no question). */
function isWarmup(entries: readonly Entry[], file: FileSpan): boolean {
  for (let i = file.first; i < file.end; i++) {
    const entry = entries[i]!;
    if (entry.kind === 'prompt') return firstText(entry.content)?.trim() === 'Warmup';
  }
  return true;
}
