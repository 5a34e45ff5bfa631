import type { Usage } from './model.js';

/**
 * The token total the report shows for a session, a sub-agent run or a day: input + output + cache creation +
 * cache read. The one place the report computes it (core's `totalTokens` computes the same).
 *
 * @param u A usage, or nothing (then 0).
 */
export function totalTokens(u: Usage | null | undefined): number {
  return u ? u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens : 0;
}
