/**
 * Many files, one history: sessions that copy each other (branch copies, resumes, copies of a growing
 * session) are found, and usage is counted once across files (seeds: "DAG deduplication").
 */
import type { Session, Usage } from './model.js';
import { addUsage, emptyUsage, hasUsage, maxUsage, responseKey } from './usage.js';

/**
 * Marks each session whose entries are all contained in another session as `duplicateOf` that session (the
 * larger one; between two equal copies, the one whose id sorts first is kept). Mutates the sessions.
 */
export function markDuplicates(sessions: Session[]): void {
  const sets = new Map<Session, Set<string>>();
  const uuidsOf = (s: Session) => {
    let set = sets.get(s);
    if (!set) {
      set = new Set(s.entries.map((e) => e.uuid));
      sets.set(s, set);
    }
    return set;
  };
  // Sessions holding each session's first uuid are the only candidates to contain it.
  const holders = new Map<string, Session[]>();
  for (const session of sessions) {
    for (const entry of session.entries) {
      const list = holders.get(entry.uuid);
      if (list) {
        if (list[list.length - 1] !== session) list.push(session);
      } else holders.set(entry.uuid, [session]);
    }
  }
  for (const session of sessions) {
    session.duplicateOf = null;
    const first = session.entries[0];
    if (!first) continue;
    const own = uuidsOf(session);
    for (const other of holders.get(first.uuid) ?? []) {
      if (other === session || other.entries.length < session.entries.length) continue;
      if (other.entries.length === session.entries.length && other.id > session.id) continue;
      const theirs = uuidsOf(other);
      let contained = true;
      for (const uuid of own) {
        if (!theirs.has(uuid)) {
          contained = false;
          break;
        }
      }
      if (contained && other.duplicateOf !== session.id) {
        session.duplicateOf = other.id;
        break;
      }
    }
  }
}

/**
 * Total usage over sessions, each API response (`message.id` + `requestId`) counted once even when several
 * files hold it.
 */
export function usageAcross(sessions: readonly Session[]): Usage {
  const seen = new Map<string, Usage>();
  for (const session of sessions) {
    for (const response of session.responses) {
      if (!hasUsage(response)) continue;
      const key = responseKey(response.id, response.requestId, response.entries[0] ?? '');
      const known = seen.get(key);
      seen.set(key, known ? maxUsage(known, response.usage) : response.usage);
    }
  }
  const total = emptyUsage();
  for (const usage of seen.values()) addUsage(total, usage);
  return total;
}
