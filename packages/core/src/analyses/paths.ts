import type { Session } from '../model.js';

/**
 * The active path of a session: uuids from its first root to its leaf, in order. Where the walk up reaches a
 * compaction boundary it continues from that compaction's logical parent, so the path spans every epoch.
 *
 * @param session A built session.
 * @param options `acrossCompactions: false` stops at the root of the last epoch.
 */
export function activePath(session: Session, options: { acrossCompactions?: boolean } = {}): string[] {
  const across = options.acrossCompactions !== false;
  const byUuid = new Map(session.entries.map((e) => [e.uuid, e]));
  const logical = new Map<string, string>();
  for (const c of session.compactions)
    if (c.uuid !== null && c.logicalParent !== null) logical.set(c.uuid, c.logicalParent);
  const path: string[] = [];
  const seen = new Set<string>();
  let at = session.leaf === null ? undefined : byUuid.get(session.leaf);
  while (at && !seen.has(at.uuid)) {
    seen.add(at.uuid);
    path.push(at.uuid);
    let up = at.parent;
    if (up === null && across) up = logical.get(at.uuid) ?? at.logicalParentUuid;
    at = up === null ? undefined : byUuid.get(up);
  }
  return path.reverse();
}
