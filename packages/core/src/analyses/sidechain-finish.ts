/** The last pass over sidechains: entry counts, time spans, depth, status, parallel groups and actors. */
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { Entry } from '../model/entry.js';
import type { Sidechain } from '../model/session.js';

/** Entry counts, time spans, depth through spawning sidechains, parallel groups, actors. */
export function finishSidechains(sidechains: Sidechain[], entries: Entry[], tools: ToolIndex): void {
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
  const lastEntry = lastEntryOf(sidechains, entries);
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
    const last = entries[lastEntry.get(sidechain.id) ?? -1];
    if (sidechain.status === 'completed' && last && endsOnOpenCall(last, tools))
      sidechain.status = 'incomplete';
  }
  assignDepths(sidechains, byId);
  assignParallelGroups(sidechains);
}

function endsOnOpenCall(last: Entry, tools: ToolIndex): boolean {
  return last.content.some((b) => b.type === 'tool_use' && !tools.resultEntry.has(b.id));
}

/** Sidechain id → index of its last entry in file order, in one pass. */
function lastEntryOf(sidechains: readonly Sidechain[], entries: readonly Entry[]): Map<string, number> {
  const last = new Map<string, number>();
  if (sidechains.length === 0) return last;
  for (let i = 0; i < entries.length; i++) {
    const id = entries[i]!.sidechain;
    if (id !== null) last.set(id, i);
  }
  return last;
}

/**
 * Depth through spawning sidechains, each computed once from its parent's (memoized, iterative): a chain of
 * 20k nested agents costs 20k steps, not 20k² / 2. A cycle of parents stops where it meets itself.
 */
function assignDepths(sidechains: readonly Sidechain[], byId: ReadonlyMap<string, Sidechain>): void {
  const depth = new Map<string, number>();
  const path: Sidechain[] = [];
  const onPath = new Set<string>();
  for (const start of sidechains) {
    let at: Sidechain | undefined = start;
    let base = 0;
    while (at) {
      const known = depth.get(at.id);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (onPath.has(at.id)) break;
      path.push(at);
      onPath.add(at.id);
      at = at.parentSidechain === null ? undefined : byId.get(at.parentSidechain);
    }
    for (let i = path.length - 1; i >= 0; i--) {
      base += 1;
      depth.set(path[i]!.id, base);
    }
    path.length = 0;
    onPath.clear();
  }
  for (const sidechain of sidechains)
    if (sidechain.parentSidechain !== null)
      sidechain.depth = Math.max(sidechain.depth, depth.get(sidechain.id) ?? 1);
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
