/** Token usage: counting each API response once, summing, and the totals shown to people. */
import type { Entry, Usage } from '../model/entry.js';
import type { ApiResponse, UsageBreakdown } from '../model/session.js';
import { ownValue, setOwn } from '../own-keys.js';

/**
 * All tokens of a usage: input + output + cache creation + cache read (0 for none).
 *
 * @param usage A usage, or null/undefined.
 * @example totalTokens(session.usage.total)
 */
export function totalTokens(usage: Usage | null | undefined): number {
  return usage
    ? usage.inputTokens + usage.outputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens
    : 0;
}

/**
 * The context a response was given: input + cache read + cache creation tokens, without its output (0 for none).
 *
 * @param usage A usage, or null/undefined.
 */
export function contextTokens(usage: Usage | null | undefined): number {
  return usage ? usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens : 0;
}

/** A usage with every count at zero. */
export function emptyUsage(): Usage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreation5mTokens: 0,
    cacheCreation1hTokens: 0,
    responses: 0,
  };
}

/**
 * Adds `b` into `a` (mutating `a`) and returns `a`.
 *
 * @param a The sum so far.
 * @param b The usage to add.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.cacheCreationInputTokens += b.cacheCreationInputTokens;
  a.cacheReadInputTokens += b.cacheReadInputTokens;
  a.cacheCreation5mTokens += b.cacheCreation5mTokens;
  a.cacheCreation1hTokens += b.cacheCreation1hTokens;
  a.responses += b.responses;
  if (b.webSearchRequests !== undefined)
    a.webSearchRequests = (a.webSearchRequests ?? 0) + b.webSearchRequests;
  return a;
}

/** The larger value of each field: split lines of one response repeat (or stream) the same usage. */
export function maxUsage(a: Usage, b: Usage): Usage {
  const max: Usage = {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheCreationInputTokens: Math.max(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
    cacheReadInputTokens: Math.max(a.cacheReadInputTokens, b.cacheReadInputTokens),
    cacheCreation5mTokens: Math.max(a.cacheCreation5mTokens, b.cacheCreation5mTokens),
    cacheCreation1hTokens: Math.max(a.cacheCreation1hTokens, b.cacheCreation1hTokens),
    responses: 1,
  };
  const searches = Math.max(a.webSearchRequests ?? 0, b.webSearchRequests ?? 0);
  if (searches > 0) max.webSearchRequests = searches;
  return max;
}

/** The key that identifies one API response: `message.id` + `requestId` (ccusage's rule). */
export function responseKey(messageId: string | null, requestId: string | null, uuid: string): string {
  if (messageId === null && requestId === null) return `uuid:${uuid}`;
  return `${messageId ?? ''}:${requestId ?? ''}`;
}

/** Whether a response counts in usage: lines written with no usage (synthetic answers) do not. */
export function hasUsage(response: ApiResponse): boolean {
  const u = response.usage;
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens > 0;
}

/** Sums API responses per model, epoch and sidechain. */
export function breakdown(responses: readonly ApiResponse[]): UsageBreakdown {
  const result: UsageBreakdown = {
    total: emptyUsage(),
    byModel: {},
    byEpoch: {},
    bySidechain: {},
    main: emptyUsage(),
  };
  for (const r of responses) {
    if (!hasUsage(r)) continue;
    addUsage(result.total, r.usage);
    addUsage(bucket(result.byModel, r.model ?? 'unknown'), r.usage);
    addUsage(bucket(result.byEpoch, String(r.epoch)), r.usage);
    addUsage(r.sidechain === null ? result.main : bucket(result.bySidechain, r.sidechain), r.usage);
  }
  return result;
}

function bucket(record: Record<string, Usage>, key: string): Usage {
  return ownValue(record, key) ?? setOwn(record, key, emptyUsage());
}

/** Groups assistant lines into API responses by `message.id` + `requestId`. */
export function groupResponses(entries: readonly Entry[]): ApiResponse[] {
  const byKey = new Map<string, ApiResponse>();
  const byId = new Map<string, ApiResponse>();
  for (const entry of entries) {
    if (!entry.message || (entry.kind !== 'assistant' && entry.kind !== 'api-error')) continue;
    const { id, requestId } = entry.message;
    const key = responseKey(id, requestId, entry.uuid);
    // A response re-written on resume (same message id, no requestId) is the same response, counted once.
    const seen = byKey.get(key) ?? (requestId === null && id !== null ? byId.get(id) : undefined);
    if (seen) {
      seen.entries.push(entry.uuid);
      if (entry.usage) seen.usage = maxUsage(seen.usage, entry.usage);
    } else {
      const response: ApiResponse = {
        id: entry.message.id,
        requestId: entry.message.requestId,
        model: entry.message.model,
        entries: [entry.uuid],
        // The entry's own usage when it counts one response (as read, always): never changed in place, a
        // later line of the response replaces it (`maxUsage`).
        usage: entry.usage
          ? entry.usage.responses === 1
            ? entry.usage
            : { ...entry.usage, responses: 1 }
          : { ...emptyUsage(), responses: 1 },
        timestamp: entry.timestamp,
        sidechain: entry.sidechain,
        epoch: entry.epoch,
      };
      byKey.set(key, response);
      if (id !== null && !byId.has(id)) byId.set(id, response);
    }
  }
  return [...byKey.values()];
}
