import type { StatsDigest } from './session-stats.js';

/** A session as the conversation map sees it. */
export interface ConversationInput {
  id: string;
  project: string | null;
  title: string | null;
  digest: StatsDigest;
}
