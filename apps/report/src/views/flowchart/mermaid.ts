import { tokensAfterCompactions } from '../charts/compaction-after.js';
import type { Entry, Session } from '../model.js';
import type { FlowNode } from './mermaid-story.js';
import { sessionStory } from './mermaid-story.js';
import { type ChartEdge, type ChartNode, chartText, clip, nodeText, short } from './mermaid-text.js';

export { mermaidLabel } from './mermaid-text.js';

/**
 * The session as Mermaid flowcharts that tell its story at any size: turns (a prompt and what answered it),
 * full compactions opening their epochs, rewinds and retries with their abandoned branches, sub-agents (fan-out
 * from the turn that spawned them, fan-in to the next turn when they ran in parallel, nested up to three deep),
 * errors. Every entry is counted in one node. A session with more than `maxNodes` nodes is drawn as an overview
 * of its parts (epochs, long epochs cut by turns) with one chart per part: nothing is cut. The steps:
 * `sessionStory` → sections → `nodeText` → `chartText`.
 */

/** Links of the nodes: an entry's place in a transcript, a sidechain's page, an abandoned branch's page. */
interface SegmentLinks {
  entryHref?: (entry: Entry) => string | null;
  sidechainHref?: (id: string) => string | null;
  branchHref?: (index: number) => string | null;
}

/** Options of `sessionMermaid`. */
export interface MermaidOptions extends SegmentLinks {
  /** Most nodes of one chart before the session is drawn by parts (default 60). */
  maxNodes?: number;
}

/** A drawn node, for the link list beside the diagram. */
type MermaidNode = ChartNode;

/** One chart: its Mermaid text and its nodes. */
export interface MermaidChart {
  /** The part's name (empty for the whole session). */
  title: string;
  /** Anchor id of the part on the page. */
  anchor: string;
  text: string;
  nodes: MermaidNode[];
  /** Entries counted in the chart's nodes. */
  entries: number;
}

/** The session's chart (the overview when it has parts), its parts and what was summarised. */
export interface MermaidGraph extends MermaidChart {
  /** Entries of the session. */
  entries: number;
  /** Sentences saying how to read the chart. */
  notes: string[];
  /** One chart per part of a long session; empty when the session fits one chart. */
  sections: MermaidChart[];
}

/** The main-conversation node each node is drawn with: itself for turns and compactions. */
function anchors(nodes: readonly FlowNode[]): Map<FlowNode, FlowNode> {
  const anchor = new Map<FlowNode, FlowNode>();
  for (const start of nodes) {
    const chain: FlowNode[] = [];
    let n: FlowNode | null = start;
    while (
      n &&
      !anchor.has(n) &&
      n.kind !== 'active' &&
      n.kind !== 'compaction' &&
      chain.length <= nodes.length
    ) {
      chain.push(n);
      n = n.parent;
    }
    const a = n
      ? (anchor.get(n) ?? n)
      : (nodes.find((x) => x.kind === 'active' || x.kind === 'compaction') ?? start);
    anchor.set(a, anchor.get(a) ?? a);
    for (const c of chain) anchor.set(c, a);
  }
  return anchor;
}

/** Cuts the nodes into parts: epochs, and runs of turns of at most `size` nodes. */
function sections(nodes: readonly FlowNode[], size: number): FlowNode[][] {
  const anchor = anchors(nodes);
  const withAnchor = new Map<FlowNode, FlowNode[]>();
  for (const n of nodes) {
    const a = anchor.get(n) ?? n;
    const list = withAnchor.get(a) ?? [];
    list.push(n);
    withAnchor.set(a, list);
  }
  const parts: FlowNode[][] = [];
  let part: FlowNode[] = [];
  let epoch = -1;
  for (const n of nodes) {
    const unit = withAnchor.get(n);
    if (!unit) continue;
    const newEpoch = n.epoch !== epoch && n.kind === 'compaction';
    if (part.length > 0 && (part.length + unit.length > size || (newEpoch && part.length >= size / 4))) {
      parts.push(part);
      part = [];
    }
    epoch = n.epoch;
    part.push(...unit);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** The chart of some nodes: edges to parents inside it, and fan-in of parallel sub-agents to the next turn. */
function chartOf(
  title: string,
  anchor: string,
  nodes: readonly FlowNode[],
  drawn: ChartNode[],
): MermaidChart {
  const inside = new Set(nodes);
  const next = new Map<FlowNode, FlowNode>();
  for (const n of nodes)
    if ((n.kind === 'active' || n.kind === 'compaction') && n.parent && !next.has(n.parent))
      next.set(n.parent, n);
  const edges: ChartEdge[] = [];
  for (const n of nodes) {
    if (!n.parent || !inside.has(n.parent)) continue;
    edges.push({
      from: n.parent.id,
      to: n.id,
      style: n.kind === 'abandoned' ? 'dashed' : n.gap ? 'gap' : 'solid',
    });
    const join = n.kind === 'sidechain' && n.parallelGroup !== null ? next.get(n.parent) : undefined;
    if (join) edges.push({ from: n.id, to: join.id, style: 'dotted' });
  }
  return { title, anchor, text: chartText(drawn, edges), nodes: drawn, entries: sum(drawn) };
}

function sum(nodes: readonly ChartNode[]): number {
  return nodes.reduce((a, n) => a + n.entries, 0);
}

/** Builds the flowchart (or the overview and its parts) of a session. */
export function sessionMermaid(session: Session, options: MermaidOptions = {}): MermaidGraph {
  const maxNodes = Math.max(8, options.maxNodes ?? 60);
  const story = sessionStory(session);
  // A compaction that records no tokens after it is labelled with the next response's context.
  const after = tokensAfterCompactions(session);
  const compactions = new Map(
    session.compactions.flatMap((c) =>
      c.uuid ? [[c.uuid, { ...c, postTokens: c.postTokens ?? after.get(c.uuid) ?? null }] as const] : [],
    ),
  );
  const sidechains = new Map(session.sidechains.map((s) => [s.id, s]));
  const branchIndex = new Map<string, number>();
  session.branches.forEach((b, i) => {
    if (!branchIndex.has(b.branchPoint)) branchIndex.set(b.branchPoint, i);
  });
  const drawn = new Map<FlowNode, ChartNode>();
  for (const n of story) {
    const bi = n.kind === 'abandoned' ? branchIndex.get(n.key ?? '') : undefined;
    drawn.set(n, {
      id: n.id,
      kind: n.kind,
      label: nodeText(n, compactions, sidechains),
      entries: n.entries,
      errors: n.errors > 0,
      href:
        n.kind === 'sidechain' && options.sidechainHref
          ? options.sidechainHref(n.key ?? '')
          : bi !== undefined && options.branchHref
            ? options.branchHref(bi)
            : (options.entryHref?.(n.first) ?? null),
    });
  }
  const notes = [
    'Each node is a turn (a prompt and what answered it), a compaction, a sub-agent or the abandoned branches of a rewind or a retry; progress, hooks and side commands are counted in their turn.',
  ];
  if (story.some((n) => n.gap))
    notes.push(
      'A dotted arrow marked "continues after a gap" joins a turn whose parent entry is not in the file (a resumed or cut session) to the turn before it.',
    );
  const chartNodes = (list: readonly FlowNode[]) => list.map((n) => drawn.get(n)!);
  if (story.length <= maxNodes) {
    const whole = chartOf('', 'flow-chart', story, chartNodes(story));
    return { ...whole, entries: session.entries.length, notes, sections: [] };
  }
  const size = Math.max(maxNodes, Math.ceil((4 * story.length) / maxNodes));
  const parts = sections(story, size).map((list, i) => {
    const turns = list.filter((n) => n.kind === 'active');
    const epochs = [...new Set(list.filter((n) => n.kind !== 'abandoned').map((n) => n.epoch + 1))];
    const epochText =
      epochs.length === 1 ? `Epoch ${epochs[0]}` : `Epochs ${epochs[0]}–${epochs[epochs.length - 1]}`;
    return chartOf(
      `Part ${i + 1} · ${epochText} · ${short(turns.length)} turns`,
      `flow-part-${i + 1}`,
      list,
      chartNodes(list),
    );
  });
  const overview: ChartNode[] = parts.map((p, i) => {
    const first = p.nodes.find((n) => n.kind === 'active');
    return {
      id: `p${i}`,
      kind: 'epoch',
      label: `${p.title}${first ? ` · ${clip(first.label, 40)}` : ''} · ${short(p.entries)} entries`,
      entries: p.entries,
      errors: p.nodes.some((n) => n.errors),
      href: `#${p.anchor}`,
    };
  });
  const edges: ChartEdge[] = overview
    .slice(1)
    .map((n, i) => ({ from: overview[i]!.id, to: n.id, style: 'solid' }));
  notes.push(
    `The session has ${story.length} nodes, so it is drawn by parts: the overview below, and one chart per part (open a part to draw it).`,
  );
  return {
    title: '',
    anchor: 'flow-chart',
    text: chartText(overview, edges),
    nodes: overview,
    entries: session.entries.length,
    notes,
    sections: parts,
  };
}
