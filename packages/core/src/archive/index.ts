/**
 * @cctrail/core/archive — what is known across sessions and what an archive holds: the serializer of a session's
 * file, the index of an archive, totals, cost and prices, statistics and their digests, duplicates, conversations
 * and teammates. `@cctrail/core` builds one session; this entry point works on many.
 *
 * @example
 * ```ts
 * import { buildSession } from '@cctrail/core';
 * import { priceSession, sessionJson } from '@cctrail/core/archive';
 * const session = await buildSession(source);
 * priceSession(session); // its cost, from the price table
 * let file = '';
 * for await (const piece of sessionJson(session)) file += piece; // the session's file of an archive
 * ```
 */

export type {
  Conversation,
  ConversationMember,
  ConversationTotals,
  JoinedEpoch,
  JoinedForkCounts,
  SessionLink,
  SessionLinkKind,
} from '../model/conversation.js';
export type { CostTotals, PriceTable } from '../model/cost.js';
export type { TeammateLink } from '../model/teammate.js';
export type { ArchivedStatus, ArchiveIndex, ArchiveProject, ArchiveSessionSummary } from './archive-index.js';
export type { ConversationInput } from './conversation-input.js';
export { findConversations } from './conversations.js';
export { costTotals, responseCosts } from './cost-totals.js';
export { findDuplicates, sessionDuplicates } from './duplicates.js';
export { responseCost } from './prices.js';
export { apiCost, reportedCost, reportedRun, withReported } from './reported-runs.js';
export type { ResponseTable } from './response-table.js';
export { responseTotals } from './response-totals.js';
export { type FileRuns, type RunOfFile, runsOnce } from './runs-once.js';
export { sessionJson } from './serialize.js';
export { priceSession, sessionCost } from './session-cost.js';
export { type SessionItem, type SessionItemsOptions, sessionItems } from './session-items.js';
export { type StatsDigest, sessionStats, statsDigest } from './session-stats.js';
export { archiveStats, combineStats } from './stats.js';
export type {
  ArchiveStats,
  BranchCounts,
  SessionStats,
  SidechainStats,
  StatsCostTotals,
} from './stats-shapes.js';
export { linkTeammates } from './teammates.js';
