/**
 * What a session tells about the other files of its conversation: the entries it names outside itself, the
 * session it was forked from, its compactions, agents and tool calls (counted once across files). Small plain data,
 * part of the statistics digest.
 */
import type { Session } from '../model/session.js';
import { type IdList, idList } from './id-list.js';
import { type JoinedDigest, joinedDigest } from './joined-digest.js';
import { type TeammateDigest, teammateDigest } from './teammate-digest.js';

/** How a session points outside itself. */
export interface ConversationDigest {
  /** Entries named but not in the session: compaction logical parents, parents of main-file orphans, summary leaves. */
  refs: { uuid: string; via: 'compaction' | 'resume' | 'summary'; from: string | null }[];
  /** A `/branch` copy's origin: `forkedFrom` on its entries, or a `fork-context-ref` record. */
  forkedFrom: { sessionId: string; at: string | null } | null;
  /** Full compactions (uuid, else file and line; trigger; time; whether in a sidechain). */
  compactions: {
    uuid: string;
    trigger: 'auto' | 'manual' | null;
    timestamp: string | null;
    sidechain: boolean;
  }[];
  /** Agent keys (agent id, else sidechain id) of its sidechains that ran. */
  agents: string[];
  /** Tool call ids (`idsOf` gives them). */
  tools: IdList;
  /** What the joined graph needs: entries' epochs, epoch boundaries, responses' epochs, branch points. */
  joined?: JoinedDigest;
  /** Teammate facts: the session is a teammate's own file, or it spawned named agents that ran elsewhere. */
  teammates?: TeammateDigest;
}

/**
 * Digests a session's links to other files.
 *
 * @param session A built session (content is not needed).
 */
export function conversationDigest(session: Session): ConversationDigest {
  // Whether a uuid is one of the session's entries: asked of compaction boundaries and summaries only, so the
  // set of every uuid is made on the first question (most sessions ask none).
  let uuids: Set<string> | undefined;
  const own = (uuid: string) => {
    uuids ??= new Set(session.entries.map((entry) => entry.uuid));
    return uuids.has(uuid);
  };
  const refs: ConversationDigest['refs'] = [];
  const orphans = new Set(session.orphans);
  let forkedFrom = null as ConversationDigest['forkedFrom'];
  for (const entry of session.entries) {
    if (entry.sidechain !== null) continue;
    const logical = entry.logicalParentUuid;
    if (logical !== null && entry.subtype === 'compact_boundary' && !own(logical))
      refs.push({ uuid: logical, via: 'compaction', from: entry.uuid });
    else if (orphans.has(entry.uuid) && entry.parentUuid !== null && entry.logicalParentUuid === null)
      refs.push({ uuid: entry.parentUuid, via: 'resume', from: entry.uuid });
    if (entry.type === 'fork-context-ref') forkedFrom = forkContext(entry.extra) ?? forkedFrom;
    const fork = entry.extra.forkedFrom;
    if (typeof fork === 'object' && fork !== null) {
      const { sessionId, messageUuid } = fork as Record<string, unknown>;
      if (typeof sessionId === 'string' && sessionId !== session.id)
        forkedFrom = { sessionId, at: typeof messageUuid === 'string' ? messageUuid : null };
    }
  }
  for (const record of session.metadata) {
    const { leafUuid } = record.record;
    if (record.type === 'summary' && typeof leafUuid === 'string' && !own(leafUuid))
      refs.push({ uuid: leafUuid, via: 'summary', from: null });
    if (record.type === 'fork-context-ref') forkedFrom = forkContext(record.record) ?? forkedFrom;
  }
  const teammates = teammateDigest(session);
  return {
    refs,
    forkedFrom,
    compactions: session.compactions
      .filter((c) => c.kind === 'full')
      .map((c) => ({
        uuid: c.uuid ?? `${c.source.file}:${c.source.line}`,
        trigger: c.trigger,
        timestamp: c.timestamp,
        sidechain: c.sidechain !== null,
      })),
    agents: session.sidechains.filter((s) => s.entries > 0).map((s) => s.agentId ?? s.id),
    tools: idList(session.tools.filter((t) => t.callUuid !== null).map((t) => t.id)),
    joined: joinedDigest(session),
    ...(teammates ? { teammates } : {}),
  };
}

/** The origin named by a `fork-context-ref` (an entry or a metadata record): `{forkedSessionId, upToMessageId}`. */
function forkContext(fields: Record<string, unknown>): ConversationDigest['forkedFrom'] {
  const { forkedSessionId, upToMessageId } = fields;
  if (typeof forkedSessionId !== 'string') return null;
  return { sessionId: forkedSessionId, at: typeof upToMessageId === 'string' ? upToMessageId : null };
}
