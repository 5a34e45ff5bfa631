/**
 * Many files, one history: sessions that copy each other (branch copies, resumes, copies of a growing
 * session) are found, and usage is counted once across files (seeds: "DAG deduplication").
 */

import { addUsage, emptyUsage, hasUsage, maxUsage, responseKey } from '../graph/usage.js';
import type { Usage } from '../model/entry.js';
import type { Session } from '../model/session.js';
import { firstId, type IdList, idsOf } from './id-list.js';

/** A session as duplicate detection sees it: its id and the uuids of its entries. */
export interface UuidSet {
  id: string;
  /** The uuids, as an array or as a statistics digest holds them (`StatsDigest.uuids`). */
  uuids: readonly string[] | IdList;
}

/**
 * For each session, the id of another session that holds all of its entries (the larger one; between two
 * equal copies, the one whose id sorts first is kept), or null.
 *
 * @param sessions Sessions by id and entry uuids; a session's first uuid is its first entry's.
 * @returns One id or null per session, in the same order.
 */
export function findDuplicates(sessions: readonly UuidSet[]): (string | null)[] {
  const duplicateOf: (string | null)[] = sessions.map(() => null);
  // Only sessions that hold a session's first uuid can contain it: one pass over every uuid finds them.
  const byFirst = new Map<string, number[]>();
  sessions.forEach((session, index) => {
    const first = typeof session.uuids === 'string' ? firstId(session.uuids) : session.uuids[0];
    if (first === undefined) return;
    const list = byFirst.get(first);
    if (list) list.push(index);
    else byFirst.set(first, [index]);
  });
  const counts = new Int32Array(sessions.length);
  const holders = new Map<number, number[]>();
  sessions.forEach((session, index) => {
    // A list's ids are made one session at a time, and dropped once looked up.
    const uuids = idsOf(session.uuids);
    counts[index] = uuids.length;
    for (const uuid of uuids) {
      const holding = byFirst.get(uuid);
      if (holding === undefined) continue;
      for (const held of holding) {
        const list = holders.get(held) ?? [];
        if (list[list.length - 1] !== index) list.push(index);
        holders.set(held, list);
      }
    }
  });
  const sets = new Map<number, Set<string>>();
  const setOf = (index: number) => {
    let set = sets.get(index);
    if (!set) {
      set = new Set(idsOf(sessions[index]!.uuids));
      sets.set(index, set);
    }
    return set;
  };
  sessions.forEach((session, index) => {
    for (const other of holders.get(index) ?? []) {
      const candidate = sessions[other]!;
      if (other === index || counts[other]! < counts[index]!) continue;
      if (counts[other] === counts[index] && candidate.id > session.id) continue;
      if (duplicateOf[other] === session.id) continue;
      if (contains(setOf(other), idsOf(session.uuids))) {
        duplicateOf[index] = candidate.id;
        break;
      }
    }
  });
  return duplicateOf;
}

function contains(set: ReadonlySet<string>, uuids: readonly string[]): boolean {
  for (const uuid of uuids) if (!set.has(uuid)) return false;
  return true;
}

/**
 * For each built session, the id of another of these sessions that contains all of its entries, else null (see
 * `findDuplicates`). A fact about several sessions: it goes into `index.json`, never into a session's file.
 *
 * @param sessions Built sessions.
 * @returns One id or null per session, in the same order.
 */
export function sessionDuplicates(sessions: readonly Pick<Session, 'id' | 'entries'>[]): (string | null)[] {
  return findDuplicates(sessions.map((s) => ({ id: s.id, uuids: s.entries.map((e) => e.uuid) })));
}

/** The usage of one API response, under the key that identifies it across files. */
export interface ResponseUsage {
  key: string;
  usage: Usage;
}

/** The usage of each API response of a session that has some, keyed for `totalUsage`. */
export function responseUsages(session: Pick<Session, 'responses'>): ResponseUsage[] {
  const out: ResponseUsage[] = [];
  for (const response of session.responses) {
    if (!hasUsage(response)) continue;
    out.push({
      key: responseKey(response.id, response.requestId, response.entries[0] ?? ''),
      usage: response.usage,
    });
  }
  return out;
}

/**
 * Total usage over lists of response usages (one list per session), each API response counted once even when
 * several lists hold it.
 */
export function totalUsage(lists: Iterable<readonly ResponseUsage[]>): Usage {
  const seen = new Map<string, Usage>();
  for (const list of lists) {
    for (const { key, usage } of list) {
      const known = seen.get(key);
      seen.set(key, known ? maxUsage(known, usage) : usage);
    }
  }
  const total = emptyUsage();
  for (const usage of seen.values()) addUsage(total, usage);
  return total;
}

/**
 * Total usage over sessions, each API response (`message.id` + `requestId`) counted once even when several
 * files hold it.
 */
export function usageAcross(sessions: readonly Session[]): Usage {
  return totalUsage(sessions.map(responseUsages));
}
