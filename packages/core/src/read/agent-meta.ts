/** Agent sidecars (`agent-<id>.meta.json`): what Claude Code records about a sub-agent beside its transcript. */

/** The fields of an agent sidecar that cctrail reads. */
export interface AgentMeta {
  agentType?: string;
  description?: string;
  toolUseId?: string;
  spawnDepth?: number;
}

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
    if (typeof meta.spawnDepth === 'number') out.spawnDepth = meta.spawnDepth;
    return out;
  } catch {
    return null;
  }
}
