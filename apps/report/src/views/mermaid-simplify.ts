import type { Segment } from './mermaid-segments.js';

/**
 * The flowchart's size limit (`mermaid.ts`): past `maxNodes`, sidechains and abandoned branches collapse to one
 * node each, then the nodes past the limit are cut into one "more" node.
 */

/** Which group a segment collapses into: its sidechain, or the top of its abandoned branch; null: none. */
function groupKey(s: Segment): string | null {
  if (s.sidechain) return `sc:${s.sidechain}`;
  if (s.kind === 'abandoned') {
    let top: Segment = s;
    while (top.parent && top.parent.kind === 'abandoned') top = top.parent;
    return `ab:${top.id}`;
  }
  return null;
}

/**
 * Collapses each sidechain and each abandoned branch into one node when there are more than `maxNodes`
 * segments (`segOf` is updated to the groups).
 *
 * @returns The segments drawn, the groups by key (empty when nothing collapsed) and the note saying so.
 */
export function collapseGroups(
  segments: Segment[],
  segOf: Map<string, Segment>,
  maxNodes: number,
): { drawn: Segment[]; merged: Map<string, Segment>; note: string | null } {
  const merged = new Map<string, Segment>();
  if (segments.length <= maxNodes) return { drawn: segments, merged, note: null };
  const kept: Segment[] = [];
  for (const s of segments) {
    const key = groupKey(s);
    if (!key) {
      kept.push(s);
      continue;
    }
    const group = merged.get(key);
    if (group) {
      group.entries.push(...s.entries);
      group.folded += s.folded;
      for (const e of s.entries) segOf.set(e.uuid, group);
    } else {
      const g: Segment = { ...s, entries: [...s.entries], kind: s.sidechain ? 'sidechain' : 'abandoned' };
      merged.set(key, g);
      kept.push(g);
      for (const e of s.entries) segOf.set(e.uuid, g);
    }
  }
  // Re-point parents to the merged groups.
  for (const s of kept) {
    if (s.parent) s.parent = segOf.get(s.parent.entries[s.parent.entries.length - 1]?.uuid ?? '') ?? s.parent;
  }
  return {
    drawn: kept,
    merged,
    note: `Sidechains and abandoned branches are drawn as one node each, to keep the graph under ${maxNodes} nodes.`,
  };
}

/**
 * Cuts the segments past `maxNodes - 1` into one "more" node with id `moreId`.
 *
 * @returns The segments drawn, the "more" node (null when nothing was cut) and the note saying so.
 */
export function cutOverflow(
  drawn: Segment[],
  maxNodes: number,
  moreId: string,
): { drawn: Segment[]; more: Segment | null; note: string | null } {
  if (drawn.length <= maxNodes) return { drawn, more: null, note: null };
  const cut = drawn.slice(maxNodes - 1);
  const hiddenEntries = cut.reduce((a, s) => a + s.entries.length + s.folded, 0);
  return {
    drawn: drawn.slice(0, maxNodes - 1),
    more: {
      id: moreId,
      entries: [],
      folded: hiddenEntries,
      parent: null,
      kind: 'more',
      sidechain: null,
      label: `${cut.length} more nodes (${hiddenEntries} entries) not drawn`,
      href: null,
    },
    note: `${cut.length} further nodes (${hiddenEntries} entries) are not drawn; the transcript has them all.`,
  };
}
