import { childrenOf, isRealFork } from '@cctrail/core';
import type { Entry, Session } from './model.js';

/**
 * The first step of the flowchart (`mermaid.ts`): the session DAG cut into segments, linear runs of entries
 * drawn as one node each, with the side leaves of tool progress and hooks folded into their run.
 */

/** What a node of the flowchart stands for. */
export type SegmentKind = 'active' | 'abandoned' | 'sidechain' | 'compaction' | 'more';

/** A run of entries drawn as one node. */
export interface Segment {
  id: string;
  entries: Entry[];
  /** Entries folded into the run (side leaves), counted but not listed. */
  folded: number;
  parent: Segment | null;
  kind: SegmentKind;
  sidechain: string | null;
  label: string;
  href: string | null;
}

/** Largest size of a side leaf (progress, hook) folded into its run. */
const FOLD_LIMIT = 8;

/** True for a compaction boundary entry. */
function isBoundary(e: Entry): boolean {
  return e.kind === 'compact-boundary' || e.kind === 'microcompact-boundary';
}

/** The session's DAG as the walk needs it: entries by uuid, children, fork kinds and roots. */
interface SessionGraph {
  byId: Map<string, Entry>;
  children: Map<string, string[]>;
  forkKind: Map<string, Session['branchPoints'][number]['kind']>;
  roots: Entry[];
}

function sessionGraph(session: Session): SessionGraph {
  const byId = new Map(session.entries.map((e) => [e.uuid, e]));
  return {
    byId,
    children: childrenOf(session.entries),
    forkKind: new Map(session.branchPoints.map((b) => [b.uuid, b.kind])),
    roots: session.entries.filter((e) => e.parent === null || !byId.has(e.parent)),
  };
}

/** Subtree sizes, without recursion: post-order by reversing a DFS pre-order. */
function subtreeSizes(g: SessionGraph): Map<string, number> {
  const size = new Map<string, number>();
  const order: string[] = [];
  const stack = g.roots.map((r) => r.uuid);
  const seen = new Set<string>();
  while (stack.length > 0) {
    const u = stack.pop() as string;
    if (seen.has(u)) continue;
    seen.add(u);
    order.push(u);
    for (const c of g.children.get(u) ?? []) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const u = order[i] as string;
    size.set(u, 1 + (g.children.get(u) ?? []).reduce((a, c) => a + (size.get(c) ?? 0), 0));
  }
  return size;
}

/** Rules of the walk: which children are drawn from an entry, and where a new segment starts. */
function walkRules(g: SessionGraph, size: Map<string, number>) {
  const foldable = (start: Entry): boolean => {
    if ((size.get(start.uuid) ?? 0) > FOLD_LIMIT) return false;
    const s = [start.uuid];
    while (s.length > 0) {
      const e = g.byId.get(s.pop() as string);
      if (!e || e.sidechain !== start.sidechain || isBoundary(e) || (g.children.get(e.uuid)?.length ?? 0) > 1)
        return false;
      s.push(...(g.children.get(e.uuid) ?? []));
    }
    return true;
  };
  /** Children drawn from `e`, and how many entries were folded into it. */
  const significant = (e: Entry): { next: Entry[]; folded: number } => {
    const kids = (g.children.get(e.uuid) ?? [])
      .map((c) => g.byId.get(c))
      .filter((c): c is Entry => c !== undefined);
    if (kids.length <= 1 || isRealFork(g.forkKind.get(e.uuid) ?? 'hook')) return { next: kids, folded: 0 };
    const main =
      kids.find(
        (k) =>
          k.active === e.active && k.sidechain === e.sidechain && (g.children.get(k.uuid)?.length ?? 0) > 0,
      ) ?? kids.reduce((a, b) => ((size.get(b.uuid) ?? 0) > (size.get(a.uuid) ?? 0) ? b : a));
    let folded = 0;
    const next: Entry[] = [];
    for (const k of kids) {
      if (k !== main && k.sidechain === e.sidechain && foldable(k)) folded += size.get(k.uuid) ?? 1;
      else next.push(k);
    }
    return { next, folded };
  };
  const startsSegment = (parent: Entry, child: Entry, siblings: number): boolean =>
    siblings > 1 ||
    child.sidechain !== parent.sidechain ||
    child.active !== parent.active ||
    isBoundary(child) ||
    isBoundary(parent);
  return { significant, startsSegment };
}

/** A new segment starting at `entry`. */
function newSegment(id: string, entry: Entry, parent: Segment | null): Segment {
  return {
    id,
    entries: [],
    folded: 0,
    parent,
    kind: isBoundary(entry)
      ? 'compaction'
      : entry.sidechain
        ? 'sidechain'
        : entry.active
          ? 'active'
          : 'abandoned',
    sidechain: entry.sidechain,
    label: '',
    href: null,
  };
}

/**
 * Walks runs from every root (with an explicit stack) and returns the segments in drawing order, with the
 * segment of every entry (folded ones included).
 */
export function segmentRuns(session: Session): { segments: Segment[]; segOf: Map<string, Segment> } {
  const g = sessionGraph(session);
  const { significant, startsSegment } = walkRules(g, subtreeSizes(g));
  const segments: Segment[] = [];
  const segOf = new Map<string, Segment>();
  const work: { entry: Entry; parent: Segment | null }[] = g.roots.map((r) => ({ entry: r, parent: null }));
  work.reverse();
  const visited = new Set<string>();
  while (work.length > 0) {
    const { entry, parent } = work.pop() as { entry: Entry; parent: Segment | null };
    if (visited.has(entry.uuid)) continue;
    const seg = newSegment(`n${segments.length}`, entry, parent);
    segments.push(seg);
    let cur: Entry = entry;
    for (;;) {
      visited.add(cur.uuid);
      seg.entries.push(cur);
      segOf.set(cur.uuid, seg);
      const { next, folded } = significant(cur);
      seg.folded += folded;
      if (folded > 0) {
        const s = (g.children.get(cur.uuid) ?? []).filter((c) => !next.some((n) => n.uuid === c));
        while (s.length > 0) {
          const u = s.pop() as string;
          segOf.set(u, seg);
          s.push(...(g.children.get(u) ?? []));
        }
      }
      const only = next[0];
      if (next.length === 1 && only && !startsSegment(cur, only, 1) && !visited.has(only.uuid)) {
        cur = only;
        continue;
      }
      for (let i = next.length - 1; i >= 0; i--) work.push({ entry: next[i] as Entry, parent: seg });
      break;
    }
  }
  return { segments, segOf };
}
