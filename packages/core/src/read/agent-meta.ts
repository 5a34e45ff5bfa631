/** Agent sidecars (`agent-<id>.meta.json`): what Claude Code records about a sub-agent beside its transcript. */

/** The fields of an agent sidecar that cctrail reads. */
export interface AgentMeta {
  agentType?: string;
  description?: string;
  toolUseId?: string;
  spawnDepth?: number;
  /** The sidecar has a `spawnDepth` that is not a positive integer up to `MAX_SPAWN_DEPTH`; it was left out. */
  invalidSpawnDepth?: true;
}

/** The deepest spawn depth a sidecar may state (deeper chains are counted, not trusted from the sidecar). */
const MAX_SPAWN_DEPTH = 1_000_000;

/**
 * Reads an agent sidecar's text, or null when it is not a JSON object.
 *
 * @param text The file's text.
 */
export function parseAgentMeta(text: string): AgentMeta | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const meta = value as Record<string, unknown>;
    const out: AgentMeta = {};
    if (typeof meta.agentType === 'string') out.agentType = meta.agentType;
    if (typeof meta.description === 'string') out.description = meta.description;
    if (typeof meta.toolUseId === 'string') out.toolUseId = meta.toolUseId;
    const depth = meta.spawnDepth;
    if (Number.isSafeInteger(depth) && (depth as number) >= 1 && (depth as number) <= MAX_SPAWN_DEPTH)
      out.spawnDepth = depth as number;
    else if (depth !== undefined && depth !== null) out.invalidSpawnDepth = true;
    return out;
  } catch {
    return null;
  }
}
