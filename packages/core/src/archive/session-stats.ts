/**
 * Statistics of one session, and its digest for statistics over many: the numbers of `cctrail stats --json` and of the report's agent pages.
 *
 * Everything here reads the structure of a session only (kinds, actors, sidechains, compactions, tools,
 * usage), so it works on sessions built with `content: false`.
 */
import { forkCounts } from '../analyses/fork-kinds.js';
import { totalTokens } from '../graph/usage.js';
import type { Session } from '../model/session.js';
import { ownValue } from '../own-keys.js';
import { type ConversationDigest, conversationDigest } from './conversation-digest.js';
import { responseCosts } from './cost-totals.js';
import { responseUsages } from './duplicates.js';
import { type IdList, idList } from './id-list.js';
import { reportedRun, reportedRuns, withReported } from './reported-runs.js';
import { type ResponseTable, responseTable } from './response-table.js';
import { emptyCost, sessionCost } from './session-cost.js';
import type { CompactionCounts, DiagnosticCounts, SessionStats, ToolCounts } from './stats-shapes.js';

/**
 * Computes the statistics of one session.
 *
 * @param session A built session (content is not needed).
 */
export function sessionStats(session: Session): SessionStats {
  const prompts = promptsBySidechain(session);
  const main = session.files.find((f) => f.role === 'main') ?? session.files[0];
  const cost = session.cost ?? sessionCost(session);
  const forks = forkCounts(session.branchPoints);
  const reported = reportedRuns(session.sidechains);
  return {
    file: main?.path ?? session.id,
    sessionId: session.id,
    project: session.project.slug,
    // A fact about several sessions: set by whoever holds them all (`archiveStats`, the CLI's digests).
    duplicateOf: null,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    models: session.models,
    versions: session.versions,
    lines: session.accounting.lines,
    entries: session.entries.length,
    roots: session.roots.length,
    orphans: session.orphans.length,
    branches: {
      forks: forks.rewinds + forks.retries,
      abandonedEntries: session.branches.reduce((sum, b) => sum + b.entries, 0),
      ...forks,
    },
    compactions: compactionCounts(session),
    sidechains: session.sidechains.map((sidechain) => {
      const run =
        sidechain.reported && sidechain.entries === 0
          ? reportedRun(sidechain.reported, sidechain.startedAt)
          : null;
      return {
        id: sidechain.id,
        agentType: sidechain.agentType,
        agentId: sidechain.agentId,
        role: sidechain.role,
        entries: sidechain.entries,
        depth: sidechain.depth,
        status: sidechain.status,
        parallelGroup: sidechain.parallelGroup,
        prompts: prompts.get(sidechain.id) ?? 0,
        tokens: run ? run.tokens : totalTokens(sidechain.usage),
        usage: sidechain.usage,
        cost: run ? { ...run.cost } : (ownValue(cost.bySidechain, sidechain.id) ?? emptyCost()),
        ...(run && sidechain.reported ? { reported: { ...sidechain.reported, cost: run.cost } } : {}),
      };
    }),
    tools: toolCounts(session),
    usage: session.usage.total,
    tokens: totalTokens(session.usage.total) + (reported?.tokens ?? 0),
    cost: withReported(cost.total, reported ?? undefined),
    claudeCodeCostUsd: cost.claudeCode?.usd ?? null,
    diagnostics: diagnosticCounts(session),
    ...(reported ? { reportedBySpawn: reported } : {}),
  };
}
/**
 * What statistics over many sessions need of one session: its own statistics, the uuids of its entries (to
 * find duplicates, see `findDuplicates`) and the usage of its API responses (to count each once across
 * files). Plain data, much smaller than the session: sessions can be digested in worker threads and only
 * their digests sent back.
 */
export interface StatsDigest {
  stats: SessionStats;
  /** Entry uuids, in the session's order (`idsOf` gives them). */
  uuids: IdList;
  /** The usage and cost of each API response (`usagesOf`, `costsOf` give them keyed). */
  responses: ResponseTable;
  /** Entries of each epoch that a full compaction closed (every epoch but the last). */
  closedEpochs: number[];
  /** How the session points into other files of its conversation (see `findConversations`). */
  conversation?: ConversationDigest;
}

/**
 * Digests a session for `combineStats`.
 *
 * @param session A built session (content is not needed); `stats.duplicateOf` is null until set across sessions.
 */
export function statsDigest(session: Session): StatsDigest {
  return {
    stats: sessionStats(session),
    uuids: idList(session.entries.map((entry) => entry.uuid)),
    responses: responseTable(responseUsages(session), responseCosts(session)),
    closedEpochs: session.epochs.slice(0, -1).map((epoch) => epoch.entries),
    conversation: conversationDigest(session),
  };
}
/** Number of `claude-as-user` prompts in each sidechain. */
function promptsBySidechain(session: Session): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of session.entries) {
    if (entry.sidechain !== null && entry.kind === 'prompt' && entry.actor === 'claude-as-user') {
      counts.set(entry.sidechain, (counts.get(entry.sidechain) ?? 0) + 1);
    }
  }
  return counts;
}

function compactionCounts(session: Session): CompactionCounts {
  const counts: CompactionCounts = { total: 0, auto: 0, manual: 0, micro: 0 };
  for (const compaction of session.compactions) {
    if (compaction.kind === 'micro') {
      counts.micro++;
      continue;
    }
    counts.total++;
    if (compaction.trigger === 'auto') counts.auto++;
    else if (compaction.trigger === 'manual') counts.manual++;
  }
  return counts;
}

function toolCounts(session: Session): ToolCounts {
  const counts: ToolCounts = { calls: 0, results: 0, paired: 0, errors: 0, missingResults: 0 };
  for (const tool of session.tools) {
    if (tool.callUuid !== null) counts.calls++;
    if (tool.resultUuid !== null) counts.results++;
    if (tool.callUuid !== null && tool.resultUuid !== null) counts.paired++;
    if (tool.status === 'error') counts.errors++;
    if (tool.status === 'missing-result') counts.missingResults++;
  }
  return counts;
}

function diagnosticCounts(session: Session): DiagnosticCounts {
  const counts: DiagnosticCounts = { error: 0, warning: 0, info: 0 };
  for (const diagnostic of session.diagnostics) counts[diagnostic.severity]++;
  return counts;
}
