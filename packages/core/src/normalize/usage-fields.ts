/** Written → normalized token usage. */
import type { Usage } from '../model/entry.js';
import { isTokenCount } from '../read/token-counts.js';

/** Reads `message.usage` as written (snake_case), or null when absent. */
export function readUsage(value: unknown): Usage | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  const cache =
    typeof raw.cache_creation === 'object' && raw.cache_creation !== null
      ? (raw.cache_creation as Record<string, unknown>)
      : {};
  const usage: Usage = {
    inputTokens: count(raw.input_tokens),
    outputTokens: count(raw.output_tokens),
    cacheCreationInputTokens: count(raw.cache_creation_input_tokens),
    cacheReadInputTokens: count(raw.cache_read_input_tokens),
    cacheCreation5mTokens: count(cache.ephemeral_5m_input_tokens),
    cacheCreation1hTokens: count(cache.ephemeral_1h_input_tokens),
    responses: 1,
  };
  const server = raw.server_tool_use;
  const searches =
    typeof server === 'object' && server !== null
      ? count((server as Record<string, unknown>).web_search_requests)
      : 0;
  if (searches > 0) usage.webSearchRequests = searches;
  return usage;
}

function count(value: unknown): number {
  return isTokenCount(value) ? value : 0;
}
