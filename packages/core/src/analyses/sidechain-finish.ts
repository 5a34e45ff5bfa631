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
