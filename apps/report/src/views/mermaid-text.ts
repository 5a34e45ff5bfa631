import { wellFormed } from './html.js';
import type { Segment } from './mermaid-segments.js';
import type { Compaction, Entry, Session } from './model.js';

/**
 * The last steps of the flowchart (`mermaid.ts`): each drawn segment's label and link, and the Mermaid text.
 * Every label is reduced to a safe alphabet; node ids are ours.
 */

/** Reduces text to a safe label: letters, digits, spaces and harmless punctuation, at most `max` characters. */
export function mermaidLabel(text: string, max = 48): string {
  const clean = wellFormed(text)
    .replace(/[^\p{L}\p{N} .,!?()\-_/+=@'*~·]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

/** The first text of an entry, without markup tags such as `<command-name>` (labels only keep words). */
function promptText(e: Entry): string {
  for (const b of e.content) {
    if (b.type !== 'text') continue;
    const text = b.text.replace(/<\/?[a-z][\w-]*(?:\s[^<>]*)?>/gi, ' ').trim();
    if (text !== '') return text;
  }
  return '';
}

function short(n: number | null): string {
  if (n === null) return '?';
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

/** Links of the nodes: an entry's place in a transcript, a sidechain's page, an abandoned branch's page. */
export interface SegmentLinks {
  entryHref?: (entry: Entry) => string | null;
  sidechainHref?: (id: string) => string | null;
  branchHref?: (index: number) => string | null;
}

/** The label of a segment that is not a compaction: its entry count and what was said or used in it. */
function runLabel(s: Segment, count: number): string {
  const prompt = s.entries.find(
    (e) => e.kind === 'prompt' && (e.actor === 'human' || e.actor === 'claude-as-user'),
  );
  const said = prompt ?? s.entries.find((e) => promptText(e) !== '');
  const tools = [
    ...new Set(s.entries.flatMap((e) => e.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])))),
  ];
  const text = said
    ? mermaidLabel(promptText(said), 40)
    : tools.length > 0
      ? mermaidLabel(tools.slice(0, 3).join(', ') + (tools.length > 3 ? ' …' : ''), 40)
      : '';
  return `${count} ${count === 1 ? 'entry' : 'entries'}${text ? ` · ${text}` : ''}`;
}

/**
 * Sets the label and link of every drawn segment.
 *
 * @param merged The collapsed groups by key (see `collapseGroups`).
 * @param compactions The session's compactions by boundary uuid.
 */
export function labelSegments(
  drawn: readonly Segment[],
  merged: ReadonlyMap<string, Segment>,
  session: Session,
  compactions: ReadonlyMap<string, Compaction>,
  links: SegmentLinks,
): void {
  const sidechainType = new Map(session.sidechains.map((s) => [s.id, s.agentType]));
  const branchIndexByHead = new Map(session.branches.map((b, i) => [b.head, i]));
  for (const s of drawn) {
    const first = s.entries[0];
    const count = s.entries.length + s.folded;
    if (!first) continue;
    if (s.kind === 'compaction') {
      const c = compactions.get(first.uuid);
      const tokens = c && c.preTokens !== null ? ` ${short(c.preTokens)} to ${short(c.postTokens)}` : '';
      s.label = `${c?.kind === 'micro' ? 'Microcompaction' : 'Compaction'}${c?.trigger ? ` ${c.trigger}` : ''}${tokens}`;
    } else {
      s.label = runLabel(s, count);
      if (merged.size > 0 && s.kind === 'abandoned') s.label = `Abandoned branch · ${count} entries`;
    }
    if (s.sidechain && merged.has(`sc:${s.sidechain}`)) {
      s.label = `${mermaidLabel(sidechainType.get(s.sidechain) ?? 'agent', 30)} · ${count} entries`;
    }
    const branchIndex = branchIndexByHead.get(first.uuid);
    s.href =
      s.sidechain && links.sidechainHref
        ? s.kind === 'sidechain' && !merged.has(`sc:${s.sidechain}`) && links.entryHref
          ? links.entryHref(first)
          : links.sidechainHref(s.sidechain)
        : branchIndex !== undefined && links.branchHref
          ? links.branchHref(branchIndex)
          : (links.entryHref?.(first) ?? null);
  }
}

const CLASS_DEFS = [
  '  classDef active fill:#dbeafe,stroke:#2563eb,color:#0f172a',
  '  classDef abandoned fill:#f1f5f9,stroke:#94a3b8,color:#475569,stroke-dasharray:4 3',
  '  classDef sidechain fill:#ede9fe,stroke:#7c3aed,color:#1e1b4b',
  '  classDef compaction fill:#ffedd5,stroke:#ea580c,color:#431407',
  '  classDef more fill:#fef9c3,stroke:#ca8a04,color:#422006',
];

/** A node's line. */
function nodeLine(s: Segment): string {
  const label = mermaidLabel(s.label, 60) || '…';
  return s.kind === 'compaction' ? `${s.id}{{"${label}"}}:::compaction` : `${s.id}["${label}"]:::${s.kind}`;
}

/**
 * The Mermaid flowchart text: main nodes, one subgraph per sidechain, the "more" node, the edges (abandoned
 * ones dashed, compactions' logical parents as dotted links) and the class definitions.
 */
export function flowchartText(
  drawn: readonly Segment[],
  more: Segment | null,
  session: Session,
  segOf: ReadonlyMap<string, Segment>,
  compactions: ReadonlyMap<string, Compaction>,
): string {
  const lines: string[] = ['flowchart TD'];
  for (const s of drawn) if (!s.sidechain) lines.push(`  ${nodeLine(s)}`);
  const bySidechain = new Map<string, Segment[]>();
  for (const s of drawn) {
    if (!s.sidechain) continue;
    const list = bySidechain.get(s.sidechain) ?? [];
    list.push(s);
    bySidechain.set(s.sidechain, list);
  }
  let sg = 0;
  for (const [id, segs] of bySidechain) {
    const sc = session.sidechains.find((s) => s.id === id);
    const title =
      mermaidLabel(`${sc?.agentType ?? 'agent'}${sc?.description ? ` · ${sc.description}` : ''}`, 50) ||
      'agent';
    lines.push(`  subgraph sg${sg++} ["${title}"]`);
    for (const s of segs) lines.push(`    ${nodeLine(s)}`);
    lines.push('  end');
  }
  if (more) lines.push(`  ${more.id}["${mermaidLabel(more.label, 60)}"]:::more`);
  const drawnSet = new Set(drawn);
  const dashed: number[] = [];
  let edge = 0;
  for (const s of drawn) {
    if (s.parent && drawnSet.has(s.parent)) {
      lines.push(`  ${s.parent.id} --> ${s.id}`);
      if (s.kind === 'abandoned') dashed.push(edge);
      edge++;
    }
    const first = s.entries[0];
    const c = first && s.kind === 'compaction' ? compactions.get(first.uuid) : undefined;
    const logical = c?.logicalParent ? segOf.get(c.logicalParent) : undefined;
    if (logical && drawnSet.has(logical) && logical !== s) {
      lines.push(`  ${logical.id} -. logical .-> ${s.id}`);
      edge++;
    }
  }
  lines.push(...CLASS_DEFS);
  if (dashed.length > 0) lines.push(`  linkStyle ${dashed.join(',')} stroke:#94a3b8,stroke-dasharray:4 3`);
  return lines.join('\n');
}
