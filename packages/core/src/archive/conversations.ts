/**
 * Conversations across files: a project-level map from session files to the conversations they make. Files are
 * linked when one continues another (a compaction's logical parent, a resumed parent or a summary leaf in the
 * other file, or a copy of its entries to continue from), forks it (`/branch`: `forkedFrom`, `fork-context-ref`),
 * or repeats it entirely (`duplicateOf`). Linked files form one conversation, whose totals count every entry,
 * response, compaction, agent and tool call once: the conversation's DAG joined by uuid.
 *
 * Linear in the number of uuids: only the uuids some file names (references and first entries) are indexed.
 */

import type { Conversation, ConversationMember, ConversationTotals } from '../model/conversation.js';
import type { ConversationInput } from './conversation-input.js';
import { firstId, idsOf } from './id-list.js';
import { type JoinedForks, joinConversation } from './joined-epochs.js';
import { reportedField } from './reported-field.js';
import { usageAndCost } from './response-totals.js';
import { runsOnce } from './runs-once.js';

/** Options of `findConversations`. */
export interface FindConversationsOptions {
  /** Also return the conversations of a single file (default true); with false they are not computed at all. */
  alone?: boolean;
}

/**
 * Groups sessions into conversations and links each file to the others of its conversation.
 *
 * @param sessions Sessions of one archive (their `digest.stats.duplicateOf` set by `findDuplicates`).
 * @param options `alone: false` leaves out the files that are a conversation of their own.
 * @returns Conversations in order of their first session's start, each listing its files in time order.
 */
export function findConversations(
  sessions: readonly ConversationInput[],
  options: FindConversationsOptions = {},
): Conversation[] {
  const alone = options.alone ?? true;
  const byProject = new Map<string | null, ConversationInput[]>();
  for (const session of sessions) {
    const list = byProject.get(session.project) ?? [];
    list.push(session);
    byProject.set(session.project, list);
  }
  return [...byProject.values()]
    .flatMap((list) => projectConversations(list, alone))
    .sort((a, b) =>
      (a.startedAt ?? '') === (b.startedAt ?? '')
        ? compare(a.id, b.id)
        : compare(a.startedAt ?? '', b.startedAt ?? ''),
    );
}

/** The conversations of one project folder (a conversation never leaves its project). */
function projectConversations(sessions: readonly ConversationInput[], alone: boolean): Conversation[] {
  const count = sessions.length;
  const indexOf = new Map(sessions.map((s, i) => [s.id, i]));
  const holders = holdersOfNamed(sessions);
  const members: ConversationMember[] = sessions.map((s) => ({
    id: s.id,
    project: s.project,
    startedAt: s.digest.stats.startedAt,
    endedAt: s.digest.stats.endedAt,
    continuedFrom: null,
    continuedIn: [],
    forkedFrom: null,
    duplicateOf: s.digest.stats.duplicateOf,
    compactions: (s.digest.conversation?.compactions ?? [])
      .filter((c) => !c.sidechain)
      .map(({ uuid, trigger, timestamp }) => ({ uuid, trigger, timestamp })),
  }));
  const group = Int32Array.from({ length: count }, (_, i) => i);
  const find = (i: number): number => {
    let at = i;
    while (group[at] !== at) {
      group[at] = group[group[at]!]!;
      at = group[at]!;
    }
    return at;
  };
  const join = (a: number, b: number) => {
    const [x, y] = [find(a), find(b)];
    if (x !== y) group[Math.max(x, y)] = Math.min(x, y);
  };

  sessions.forEach((session, i) => {
    const member = members[i]!;
    const links = session.digest.conversation;
    const duplicateOf = member.duplicateOf === null ? undefined : indexOf.get(member.duplicateOf);
    if (duplicateOf !== undefined) join(i, duplicateOf);
    const fork = links?.forkedFrom;
    const origin = fork ? indexOf.get(fork.sessionId) : undefined;
    if (fork && origin !== undefined && origin !== i) {
      member.forkedFrom = { kind: 'fork', session: fork.sessionId, at: fork.at };
      join(i, origin);
    }
    for (const ref of links?.refs ?? []) {
      const other = holders.get(ref.uuid)?.find((j) => j !== i);
      if (other === undefined) continue;
      join(i, other);
      // A fork that goes on below its fork point in the origin file is a fork, not a continuation.
      if (other === origin && ref.via === 'resume') continue;
      member.continuedFrom ??= { kind: ref.via, session: sessions[other]!.id, at: ref.uuid };
    }
    // A file that starts with a copy of another's entry and goes on: a resume written to a new file.
    const first = firstId(session.digest.uuids);
    if (member.continuedFrom || member.forkedFrom || duplicateOf !== undefined || first === undefined) return;
    const earlier = (holders.get(first) ?? []).find(
      (j) => j !== i && members[j]!.duplicateOf !== session.id && before(members[j]!, member),
    );
    if (earlier === undefined) return;
    join(i, earlier);
    member.continuedFrom = { kind: 'resume', session: sessions[earlier]!.id, at: first };
  });
  for (const member of members) {
    const from = member.continuedFrom;
    const target = from === null ? undefined : indexOf.get(from.session);
    if (from && target !== undefined)
      members[target]!.continuedIn.push({ kind: from.kind, session: member.id, at: from.at });
  }

  const groups = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(i);
    groups.set(root, list);
  }
  return [...groups.values()]
    .filter((list) => alone || list.length > 1)
    .map((list) => {
      list.sort((a, b) => (before(members[a]!, members[b]!) ? -1 : 1));
      const first = sessions[list[0]!]!;
      const at = list.map((i) => members[i]!);
      const files = list.map((i) => sessions[i]!);
      const joined = joinConversation(files, at.filter((m) => m.forkedFrom !== null).length);
      return {
        id: first.id,
        title: files.map((s) => s.title).find((t) => t !== null) ?? null,
        startedAt: minOf(at.map((m) => m.startedAt)),
        endedAt: maxOf(at.map((m) => m.endedAt)),
        sessions: at,
        totals: conversationTotals(files, at, joined.forks),
        epochs: joined.epochs,
        forkKinds: joined.forks,
      };
    });
}

/**
 * Totals of one conversation over its files: each entry (uuid), API response, full compaction, agent and tool
 * call counted once however many files hold it.
 *
 * @param sessions The conversation's sessions.
 * @param members Their places in the conversation (for the forks).
 * @param joined Branch points of the joined graph (`joinConversation`): forks are then its rewinds and retries,
 *   each once however many files copy them, plus its `/branch` copies.
 */
function conversationTotals(
  sessions: readonly ConversationInput[],
  members: readonly ConversationMember[] = [],
  joined?: JoinedForks,
): ConversationTotals {
  const uuids = new Set<string>();
  const compactions = new Set<string>();
  const epochs = new Set<string>();
  const agents = new Set<string>();
  const tools = new Set<string>();
  let lines = 0;
  for (const { digest } of sessions) {
    lines += digest.stats.lines;
    for (const uuid of idsOf(digest.uuids)) uuids.add(uuid);
    for (const c of digest.conversation?.compactions ?? []) {
      compactions.add(c.uuid);
      if (!c.sidechain) epochs.add(c.uuid);
    }
    for (const agent of digest.conversation?.agents ?? []) agents.add(agent);
    for (const tool of idsOf(digest.conversation?.tools ?? '')) tools.add(tool);
  }
  return {
    files: sessions.length,
    lines,
    entries: uuids.size,
    compactions: compactions.size,
    epochs: uuids.size === 0 ? 0 : epochs.size + 1,
    forks: joined
      ? joined.rewinds + joined.retries + joined.branches
      : members.filter((m) => m.forkedFrom !== null).length +
        sessions.reduce(
          (sum, s) => sum + (s.digest.stats.duplicateOf === null ? s.digest.stats.branches.forks : 0),
          0,
        ),
    sidechains: agents.size,
    toolCalls: tools.size,
    ...usageAndCost(sessions),
    // Runs without their transcript, each once across the files (a continued file repeats its spawns), as the
    // archive's totals count them.
    ...reportedField(
      runsOnce(
        sessions.map(({ digest }) => ({
          scope: digest.stats.project,
          runs: digest.stats.sidechains,
          counted: digest.stats.duplicateOf === null,
        })),
      ).flat(),
    ),
  };
}

/** uuid → sessions holding it, for the uuids some session names: references and first entries. */
function holdersOfNamed(sessions: readonly ConversationInput[]): Map<string, number[]> {
  const named = new Map<string, number[]>();
  for (const s of sessions) {
    for (const ref of s.digest.conversation?.refs ?? []) named.set(ref.uuid, []);
    const first = firstId(s.digest.uuids);
    if (first !== undefined) named.set(first, []);
  }
  sessions.forEach((s, i) => {
    for (const uuid of idsOf(s.digest.uuids)) {
      const list = named.get(uuid);
      if (list && list[list.length - 1] !== i) list.push(i);
    }
  });
  return named;
}

/** Time order of two files: start, then end (a copy that goes on ends later), then id; files without times last. */
function before(a: ConversationMember, b: ConversationMember): boolean {
  const key = (m: ConversationMember) => [m.startedAt ?? '\uffff', m.endedAt ?? '\uffff', m.id] as const;
  const [x, y] = [key(a), key(b)];
  for (let k = 0; k < 3; k++) if (x[k] !== y[k]) return x[k]! < y[k]!;
  return false;
}

function minOf(values: (string | null)[]): string | null {
  let out: string | null = null;
  for (const v of values) if (v !== null && (out === null || v < out)) out = v;
  return out;
}

function maxOf(values: (string | null)[]): string | null {
  let out: string | null = null;
  for (const v of values) if (v !== null && (out === null || v > out)) out = v;
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
