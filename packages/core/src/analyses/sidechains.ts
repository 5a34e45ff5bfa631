/**
 * Sidechains: sub-agent conversations in all three storage eras (FORMAT.md §8) — inline `isSidechain` lines
 * (1.0.x), flat `agent-<id>.jsonl` files (2.0.x) and `<session>/subagents/` files with `.meta.json` (2.1.x) —
 * each linked to the Task/Agent call that spawned it, with its agent type, depth, parallel group and status.
 */

import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import type { ToolIndex } from '../graph/tool-pairing.js';
import { emptyUsage } from '../graph/usage.js';
import type { Diagnostic, Entry, Sidechain, SidechainLink, SidechainStorage } from '../model.js';
import { firstText } from '../normalize/prompt-text.js';
import type { AgentMeta } from '../read/agent-meta.js';
import type { FileSpan } from '../read/session-reader.js';

const SPAWN_TOOLS = new Set(['Task', 'Agent']);
/** Inline sidechains are matched to a Task call started at most this long before them. */
const TIMESTAMP_WINDOW_MS = 2000;

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
    sidechain.status = 'missing';
    if (tools.callEntry.has(toolUseId)) attachSpawn(sidechain, toolUseId, 'agent-id', tools, entries, -1);
    sidechain.status = 'missing';
    linkedCalls.add(toolUseId);
    sidechains.push(sidechain);
  }

  sidechains.push(...inlineSidechains(dag, files, tools, linkedCalls, diagnostics));

  // Task/Agent calls no sidechain was found for.
  for (const [id, at] of tools.callEntry) {
    const call = entries[at]!;
    const block = call.content.find((b) => b.type === 'tool_use' && b.id === id);
    if (block?.type !== 'tool_use' || !SPAWN_TOOLS.has(block.name) || linkedCalls.has(id)) continue;
    diagnostics.push(
      diagnostic('task-without-sidechain', call.source.file, call.source.line, {
        uuid: call.uuid,
        message: `${block.name} call ${id} has no sidechain in the session.`,
      }),
    );
    const sidechain = newSidechain(`task-${id}`, null, guessStorage(call), null);
    attachSpawn(sidechain, id, 'none', tools, entries, -1);
    sidechain.status = 'missing';
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

function newSidechain(
  id: string,
  agentId: string | null,
  storage: SidechainStorage,
  file: string | null,
): Sidechain {
  return {
    id,
    agentId,
    agentType: 'unknown',
    description: null,
    role: 'task',
    storage,
    file,
    spawn: null,
    link: 'none',
    depth: 1,
    parentSidechain: null,
    parallelGroup: null,
    status: 'unknown',
    rootUuid: null,
    entries: 0,
    startedAt: null,
    endedAt: null,
    usage: emptyUsage(),
  };
}

/** Links a sidechain to its spawning call: agent type, description, status, and the root's parent. */
function attachSpawn(
  sidechain: Sidechain,
  toolUseId: string,
  link: SidechainLink,
  tools: ToolIndex,
  entries: Entry[],
  root: number,
): void {
  const callAt = tools.callEntry.get(toolUseId)!;
  const call = entries[callAt]!;
  const input = asRecord(tools.callInput.get(toolUseId));
  sidechain.role = 'task';
  sidechain.spawn = { toolUseId, entryUuid: call.uuid };
  sidechain.link = link;
  sidechain.agentType = stringField(input.subagent_type) ?? 'general-purpose';
  sidechain.description = stringField(input.description);
  const resultAt = tools.resultEntry.get(toolUseId);
  if (resultAt === undefined) sidechain.status = 'incomplete';
  else {
    const result = entries[resultAt]!;
    const block = result.content.find((b) => b.type === 'tool_result' && b.toolUseId === toolUseId);
    const status = stringField(asRecord(result.toolUseResult).status);
    const resultType = stringField(asRecord(result.toolUseResult).agentType);
    if (resultType && !stringField(input.subagent_type)) sidechain.agentType = resultType;
    sidechain.status =
      (block?.type === 'tool_result' && block.isError) || status === 'error' ? 'error' : 'completed';
  }
  if (root >= 0) entries[root]!.parent = call.uuid;
}

function pickType(sidechain: Sidechain, metaType: string): string {
  return sidechain.agentType === 'unknown' || sidechain.agentType === 'general-purpose'
    ? metaType
    : sidechain.agentType;
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

function guessStorage(call: Entry | undefined): SidechainStorage {
  const version = call?.version;
  if (!version) return 'inline';
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (major < 2) return 'inline';
  return major > 2 || minor > 1 || (minor === 1 && patch >= 2) ? 'subagents' : 'flat';
}

/** 1.0.x inline sidechains, and the seeds' sidechains that hang from their Task message. */
function inlineSidechains(
  dag: Dag,
  files: readonly FileSpan[],
  tools: ToolIndex,
  linkedCalls: Set<string>,
  diagnostics: Diagnostic[],
): Sidechain[] {
  const { entries, parent, children } = dag;
  const main = files.find((f) => f.role === 'main');
  if (!main) return [];
  const level = (i: number) => {
    const value = entries[i]!.extra.nestingLevel;
    return typeof value === 'number' ? value : 1;
  };

  // Unclaimed Task calls of the main file, in file order, for prompt and time matching.
  const candidates: { id: string; at: number; prompt: string; time: number }[] = [];
  for (const [id, at] of tools.callEntry) {
    if (at < main.first || at >= main.end || linkedCalls.has(id)) continue;
    const block = entries[at]!.content.find((b) => b.type === 'tool_use' && b.id === id);
    if (block?.type !== 'tool_use' || !SPAWN_TOOLS.has(block.name)) continue;
    const prompt = stringField(asRecord(block.input).prompt) ?? '';
    candidates.push({ id, at, prompt: prompt.trim(), time: Date.parse(entries[at]!.timestamp ?? '') });
  }
  candidates.sort((a, b) => a.at - b.at);

  const out: Sidechain[] = [];
  for (let i = main.first; i < main.end; i++) {
    const entry = entries[i]!;
    if (!entry.isSidechain) continue;
    const p = parent[i]!;
    const isRoot = p === -1 || !entries[p]!.isSidechain || level(i) !== level(p);
    if (!isRoot) continue;

    const sidechain = newSidechain(
      `inline-${entry.uuid}`,
      stringField(entry.extra.agentId),
      'inline',
      main.path,
    );
    sidechain.rootUuid = entry.uuid;
    // Members: the root and every sidechain descendant at the same nesting level.
    const stack = [i];
    while (stack.length > 0) {
      const at = stack.pop()!;
      entries[at]!.sidechain = sidechain.id;
      for (const child of children[at]!) {
        if (entries[child]!.isSidechain && level(child) === level(i)) stack.push(child);
      }
    }

    let spawn: { id: string; link: SidechainLink } | null = null;
    if (p >= 0) {
      const id = spawnCallOf(entries[p]!);
      if (id && !linkedCalls.has(id)) spawn = { id, link: 'parent-uuid' };
      else if (!id) {
        // Seeds: a sidechain hangs from its spawning message; with no Task call there, the agent is unknown.
        sidechain.spawn = { toolUseId: null, entryUuid: entries[p]!.uuid };
        sidechain.link = 'parent-uuid';
        sidechain.parentSidechain = entries[p]!.sidechain;
        entry.parent = entries[p]!.uuid;
      }
    }
    if (!spawn) {
      const text = (firstText(entry.content) ?? '').trim();
      const byPrompt = text ? candidates.find((c) => !linkedCalls.has(c.id) && c.prompt === text) : undefined;
      if (byPrompt) spawn = { id: byPrompt.id, link: 'prompt' };
    }
    if (!spawn) {
      const time = Date.parse(entry.timestamp ?? '');
      let best: (typeof candidates)[number] | undefined;
      for (const c of candidates) {
        if (linkedCalls.has(c.id) || !Number.isFinite(time) || !Number.isFinite(c.time)) continue;
        const gap = time - c.time;
        if (gap >= 0 && gap <= TIMESTAMP_WINDOW_MS && (!best || gap < time - best.time)) best = c;
      }
      if (best) spawn = { id: best.id, link: 'timestamp' };
    }
    if (spawn) {
      linkedCalls.add(spawn.id);
      attachSpawn(sidechain, spawn.id, spawn.link, tools, entries, i);
    } else if (sidechain.spawn === null) {
      sidechain.role = 'orphan';
      diagnostics.push(
        diagnostic('sidechain-unmatched', entry.source.file, entry.source.line, { uuid: entry.uuid }),
      );
    }
    if (level(i) > 1) sidechain.depth = level(i);
    out.push(sidechain);
  }
  return out;
}

/** The Task/Agent tool_use id in an entry, if it holds one. */
function spawnCallOf(entry: Entry): string | null {
  for (const block of entry.content) {
    if (block.type === 'tool_use' && SPAWN_TOOLS.has(block.name)) return block.id;
  }
  return null;
}

/** Entry counts, time spans, depth through spawning sidechains, parallel groups, actors. */
function finishSidechains(sidechains: Sidechain[], entries: Entry[], tools: ToolIndex): void {
  const byId = new Map(sidechains.map((s) => [s.id, s]));
  for (const entry of entries) {
    if (entry.sidechain === null) continue;
    const sidechain = byId.get(entry.sidechain);
    if (!sidechain) continue;
    sidechain.entries += 1;
    if (entry.timestamp) {
      if (!sidechain.startedAt || entry.timestamp < sidechain.startedAt)
        sidechain.startedAt = entry.timestamp;
      if (!sidechain.endedAt || entry.timestamp > sidechain.endedAt) sidechain.endedAt = entry.timestamp;
    }
    if (entry.kind === 'prompt' || entry.kind === 'command' || entry.kind === 'interrupt')
      entry.actor = 'claude-as-user';
    else if (entry.kind === 'assistant' || entry.kind === 'api-error') entry.actor = 'subagent';
  }
  for (const sidechain of sidechains) {
    if (!sidechain.spawn?.toolUseId) continue;
    const call = entries[tools.callEntry.get(sidechain.spawn.toolUseId)!]!;
    sidechain.parentSidechain = call.sidechain;
    if (sidechain.entries === 0) {
      sidechain.startedAt = call.timestamp;
      const resultAt = tools.resultEntry.get(sidechain.spawn.toolUseId);
      sidechain.endedAt = resultAt === undefined ? null : entries[resultAt]!.timestamp;
    }
    // The last line of an agent that ends on an unanswered tool call: it stopped mid-way.
    if (sidechain.status === 'completed' && endsOnOpenCall(sidechain, entries, tools))
      sidechain.status = 'incomplete';
  }
  for (const sidechain of sidechains) {
    if (sidechain.parentSidechain === null) continue;
    let depth = 1;
    let at: Sidechain | undefined = sidechain;
    const seen = new Set<string>();
    while (at?.parentSidechain && !seen.has(at.id)) {
      seen.add(at.id);
      at = byId.get(at.parentSidechain);
      depth += 1;
    }
    sidechain.depth = Math.max(sidechain.depth, depth);
  }
  assignParallelGroups(sidechains);
}

function endsOnOpenCall(sidechain: Sidechain, entries: readonly Entry[], tools: ToolIndex): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.sidechain !== sidechain.id) continue;
    return entry.content.some((b) => b.type === 'tool_use' && !tools.resultEntry.has(b.id));
  }
  return false;
}

/** Sidechains whose time spans overlap share a group number (1, 2, …); a sidechain alone gets null. */
function assignParallelGroups(sidechains: Sidechain[]): void {
  const timed = sidechains
    .filter((s) => s.role === 'task' && s.startedAt && s.endedAt)
    .map((s) => ({ s, start: Date.parse(s.startedAt!), end: Date.parse(s.endedAt!) }))
    .filter((t) => Number.isFinite(t.start) && Number.isFinite(t.end))
    .sort((a, b) => a.start - b.start);
  let group: typeof timed = [];
  let groupEnd = -Infinity;
  let next = 1;
  const close = () => {
    if (group.length > 1) {
      for (const t of group) t.s.parallelGroup = next;
      next += 1;
    }
  };
  for (const t of timed) {
    if (t.start < groupEnd) {
      group.push(t);
      groupEnd = Math.max(groupEnd, t.end);
    } else {
      close();
      group = [t];
      groupEnd = t.end;
    }
  }
  close();
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function stringField(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
