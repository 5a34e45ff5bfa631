/** Building blocks of sidechains: a new sidechain, and its link to the Task/Agent call that spawned it. */
import type { ToolIndex } from '../graph/tool-pairing.js';
import { emptyUsage } from '../graph/usage.js';
import type { Entry, SidechainStorage } from '../model/entry.js';
import type { Sidechain, SidechainLink } from '../model/session.js';

/** The tools that spawn a sub-agent. */
export const SPAWN_TOOLS = new Set(['Task', 'Agent']);

/** A sidechain with nothing known yet but its id, agent id, storage and file. */
export function newSidechain(
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
export function attachSpawn(
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
  const name = stringField(input.name);
  const teamName = stringField(input.team_name);
  if (name !== null) sidechain.name = name;
  if (teamName !== null) sidechain.teamName = teamName;
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

/** The agent type from a `.meta.json` wins over an unknown or generic one read from the call. */
export function pickType(sidechain: Sidechain, metaType: string): string {
  return sidechain.agentType === 'unknown' || sidechain.agentType === 'general-purpose'
    ? metaType
    : sidechain.agentType;
}

/** Where a sidechain whose file is missing would have been stored, from its spawning entry's era. */
export function guessStorage(call: Entry | undefined): SidechainStorage {
  const version = call?.version;
  if (!version) return 'inline';
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (major < 2) return 'inline';
  return major > 2 || minor > 1 || (minor === 1 && patch >= 2) ? 'subagents' : 'flat';
}

/** The Task/Agent tool_use id in an entry, if it holds one. */
export function spawnCallOf(entry: Entry): string | null {
  for (const block of entry.content) {
    if (block.type === 'tool_use' && SPAWN_TOOLS.has(block.name)) return block.id;
  }
  return null;
}

/** The value when it is a plain object, else an empty one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The value when it is a string, else null. */
export function stringField(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
