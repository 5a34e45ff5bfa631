/**
 * What a session tells about teammates written as their own file (FORMAT.md §13.2): whether it IS a teammate's
 * file (its entries carry `agentName`/`teamName`), and the named spawns whose agent ran in no file of the session
 * (their teammate may be another file of the project). Small plain data, part of the conversation digest.
 */
import type { Entry } from '../model/entry.js';
import type { Session } from '../model/session.js';

/** A session's teammate facts. */
export interface TeammateDigest {
  /** Set when the session is a teammate's own file. */
  self: {
    name: string;
    team: string | null;
    status: 'completed' | 'incomplete';
    /** First line of its last answer. */
    result: string | null;
  } | null;
  /** Named spawns (a `name` on the Task/Agent call) that have no transcript in this session. */
  spawns: {
    sidechain: string;
    toolUseId: string;
    name: string;
    team: string | null;
    /** `<name>@session-<8hex>` from the spawn's result. */
    agentRef: string | null;
    timestamp: string | null;
  }[];
}

const AGENT_REF = /agent_id:\s*([^\s@]+@session-[0-9a-f]{8})/i;

/**
 * Digests a session's teammate facts, or returns null when it has none (most sessions).
 *
 * @param session A built session (content is not needed, a spawn result's `toolUseResult.agent_id` suffices).
 */
export function teammateDigest(session: Session): TeammateDigest | null {
  let self: TeammateDigest['self'] = null;
  for (const entry of session.entries) {
    const name = entry.extra.agentName;
    if (entry.sidechain !== null || typeof name !== 'string' || name === '') continue;
    const team = entry.extra.teamName;
    self = { name, team: typeof team === 'string' ? team : null, status: 'incomplete', result: null };
    break;
  }
  const named = session.sidechains.filter(
    (s) => s.name && s.entries === 0 && s.spawn?.toolUseId && s.status !== 'failed',
  );
  if (self === null && named.length === 0) return null;
  const byUuid = new Map(session.entries.map((e) => [e.uuid, e]));
  if (self !== null) {
    const leaf = session.leaf === null ? undefined : byUuid.get(session.leaf);
    if (leaf?.type === 'assistant') self.status = 'completed';
    self.result = lastAnswer(session.entries);
  }
  const calls = new Map(session.tools.map((t) => [t.id, t]));
  const spawns = named.map((s) => {
    const toolUseId = s.spawn!.toolUseId!;
    const result = byUuid.get(calls.get(toolUseId)?.resultUuid ?? '');
    return {
      sidechain: s.id,
      toolUseId,
      name: s.name!,
      team: s.teamName ?? null,
      agentRef: result ? agentRef(result, toolUseId) : null,
      timestamp: byUuid.get(s.spawn!.entryUuid)?.timestamp ?? null,
    };
  });
  return { self, spawns };
}

/** `<name>@session-<8hex>` from a spawn result: `toolUseResult.agent_id`, else the result's text. */
function agentRef(result: Entry, toolUseId: string): string | null {
  const fields = result.toolUseResult;
  if (typeof fields === 'object' && fields !== null && !Array.isArray(fields)) {
    const id = (fields as Record<string, unknown>).agent_id;
    if (typeof id === 'string' && id.includes('@')) return id;
  }
  for (const block of result.content) {
    if (block.type !== 'tool_result' || block.toolUseId !== toolUseId) continue;
    for (const item of block.content) {
      const match = item.type === 'text' ? AGENT_REF.exec(item.text) : null;
      if (match) return match[1]!;
    }
  }
  return null;
}

/** First line of the last text a main-conversation assistant entry wrote, at most 200 characters. */
function lastAnswer(entries: readonly Entry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type !== 'assistant' || entry.sidechain !== null || !entry.active) continue;
    for (const block of entry.content) {
      if (block.type !== 'text') continue;
      const line = block.text
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim();
      if (line) return line.length > 200 ? `${line.slice(0, 199)}…` : line;
    }
  }
  return null;
}
