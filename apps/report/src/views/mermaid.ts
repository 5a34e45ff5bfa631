import { type SegmentKind, segmentRuns } from './mermaid-segments.js';
import { collapseGroups, cutOverflow } from './mermaid-simplify.js';
import { flowchartText, labelSegments, type SegmentLinks } from './mermaid-text.js';
import type { Session } from './model.js';

export { mermaidLabel } from './mermaid-text.js';

/**
 * The session DAG as Mermaid flowchart text, readable at any size: linear runs become one node with a count,
 * side leaves of tool progress and hooks are folded into their run, abandoned branches and sidechains are
 * styled apart (sidechains in subgraphs named by agent type), compaction boundaries are their own nodes with
 * a dashed logical link. Past `maxNodes`, sidechains and abandoned branches collapse to one node each, then
 * the rest is cut with a note. The steps: `segmentRuns` → `collapseGroups` → `cutOverflow` → `labelSegments`
 * → `flowchartText`.
 */

/** Options of `sessionMermaid`. */
export interface MermaidOptions extends SegmentLinks {
  /** Most nodes drawn (default 150). */
  maxNodes?: number;
}

/** A drawn node, for the link list beside the diagram. */
export interface MermaidNode {
  id: string;
  label: string;
  entries: number;
  href: string | null;
  kind: SegmentKind;
}

/** Mermaid text with the nodes drawn and what was simplified. */
export interface MermaidGraph {
  text: string;
  nodes: MermaidNode[];
  /** Entries in the graph. */
  entries: number;
  /** Sentences saying what was collapsed or cut. */
  notes: string[];
}

/** Builds the Mermaid flowchart of a session. */
export function sessionMermaid(session: Session, options: MermaidOptions = {}): MermaidGraph {
  const maxNodes = Math.max(5, options.maxNodes ?? 150);
  const compactions = new Map(session.compactions.flatMap((c) => (c.uuid ? [[c.uuid, c] as const] : [])));
  const { segments, segOf } = segmentRuns(session);
  const notes: string[] = [];
  const collapsedRuns = segments.filter((s) => s.entries.length + s.folded > 1).length;
  if (collapsedRuns > 0)
    notes.push(
      collapsedRuns === 1
        ? 'A linear run is drawn as one node, with its entry count.'
        : `${collapsedRuns} linear runs are drawn as one node each, with their entry count.`,
    );
  const collapsed = collapseGroups(segments, segOf, maxNodes);
  const cut = cutOverflow(collapsed.drawn, maxNodes, `n${segments.length}`);
  for (const note of [collapsed.note, cut.note]) if (note) notes.push(note);
  const { drawn, more } = cut;
  labelSegments(drawn, collapsed.merged, session, compactions, options);
  const nodes: MermaidNode[] = drawn.map((s) => ({
    id: s.id,
    label: s.label,
    entries: s.entries.length + s.folded,
    href: s.href,
    kind: s.kind,
  }));
  if (more) nodes.push({ id: more.id, label: more.label, entries: more.folded, href: null, kind: 'more' });
  return {
    text: flowchartText(drawn, more, session, segOf, compactions),
    nodes,
    entries: session.entries.length,
    notes,
  };
}
