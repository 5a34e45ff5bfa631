import { wellFormed } from './html.js';
import type { Entry, Session } from './model.js';
import { childrenOf } from './transcript.js';

/**
 * The session DAG as Mermaid flowchart text, readable at any size: linear runs become one node with a count,
 * side leaves of tool progress and hooks are folded into their run, abandoned branches and sidechains are
 * styled apart (sidechains in subgraphs named by agent type), compaction boundaries are their own nodes with
 * a dashed logical link. Past `maxNodes`, sidechains and abandoned branches collapse to one node each, then
 * the rest is cut with a note. Every label is reduced to a safe alphabet; node ids are ours.
 */

/** Options of `sessionMermaid`. */
export interface MermaidOptions {
  /** Most nodes drawn (default 150). */
  maxNodes?: number;
  /** Href of an entry's place in a transcript, or null. */
  entryHref?: (entry: Entry) => string | null;
  /** Href of a sidechain's page. */
  sidechainHref?: (id: string) => string | null;
  /** Href of an abandoned branch's page (index into `Session.branches`). */
  branchHref?: (index: number) => string | null;
}

/** A drawn node, for the link list beside the diagram. */
export interface MermaidNode {
  id: string;
  label: string;
  entries: number;
  href: string | null;
  kind: 'active' | 'abandoned' | 'sidechain' | 'compaction' | 'more';
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

/** Largest size of a side leaf (progress, hook) folded into its run. */
const FOLD_LIMIT = 8;

/** Reduces text to a safe label: letters, digits, spaces and harmless punctuation, at most `max` characters. */
export function mermaidLabel(text: string, max = 48): string {
  const clean = wellFormed(text)
    .replace(/[^\p{L}\p{N} .,!?()\-_/+=@'*~·]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

interface Segment {
  id: string;
  entries: Entry[];
  folded: number;
  parent: Segment | null;
  kind: MermaidNode['kind'];
  sidechain: string | null;
  label: string;
  href: string | null;
}

function isBoundary(e: Entry): boolean {
  return e.kind === 'compact-boundary' || e.kind === 'microcompact-boundary';
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

/** Builds the Mermaid flowchart of a session. */
export function sessionMermaid(session: Session, options: MermaidOptions = {}): MermaidGraph {
  const maxNodes = Math.max(5, options.maxNodes ?? 150);
  const byId = new Map(session.entries.map((e) => [e.uuid, e]));
  const children = childrenOf(session.entries);
  const forkKind = new Map(session.branchPoints.map((b) => [b.uuid, b.kind]));
  const compactions = new Map(session.compactions.flatMap((c) => (c.uuid ? [[c.uuid, c] as const] : [])));

  // Subtree sizes, without recursion: post-order by reversing a DFS pre-order.
  const size = new Map<string, number>();
  const order: string[] = [];
  const roots = session.entries.filter((e) => e.parent === null || !byId.has(e.parent));
  const stack = roots.map((r) => r.uuid);
  const seen = new Set<string>();
  while (stack.length > 0) {
    const u = stack.pop() as string;
    if (seen.has(u)) continue;
    seen.add(u);
    order.push(u);
    for (const c of children.get(u) ?? []) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const u = order[i] as string;
    size.set(u, 1 + (children.get(u) ?? []).reduce((a, c) => a + (size.get(c) ?? 0), 0));
  }

  const foldable = (start: Entry): boolean => {
    if ((size.get(start.uuid) ?? 0) > FOLD_LIMIT) return false;
    const s = [start.uuid];
    while (s.length > 0) {
      const e = byId.get(s.pop() as string);
      if (!e || e.sidechain !== start.sidechain || isBoundary(e) || (children.get(e.uuid)?.length ?? 0) > 1)
        return false;
      s.push(...(children.get(e.uuid) ?? []));
    }
    return true;
  };

  /** Children drawn from `e`, and how many entries were folded into it. */
  const significant = (e: Entry): { next: Entry[]; folded: number } => {
    const kids = (children.get(e.uuid) ?? [])
      .map((c) => byId.get(c))
      .filter((c): c is Entry => c !== undefined);
    if (kids.length <= 1 || forkKind.get(e.uuid) === 'fork') return { next: kids, folded: 0 };
    const main =
      kids.find(
        (k) =>
          k.active === e.active && k.sidechain === e.sidechain && (children.get(k.uuid)?.length ?? 0) > 0,
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

  // Walk runs from every root.
  const segments: Segment[] = [];
  const segOf = new Map<string, Segment>();
  const work: { entry: Entry; parent: Segment | null }[] = roots.map((r) => ({ entry: r, parent: null }));
  work.reverse();
  const visited = new Set<string>();
  while (work.length > 0) {
    const { entry, parent } = work.pop() as { entry: Entry; parent: Segment | null };
    if (visited.has(entry.uuid)) continue;
    const seg: Segment = {
      id: `n${segments.length}`,
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
    segments.push(seg);
    let cur: Entry = entry;
    for (;;) {
      visited.add(cur.uuid);
      seg.entries.push(cur);
      segOf.set(cur.uuid, seg);
      const { next, folded } = significant(cur);
      seg.folded += folded;
      if (folded > 0) {
        const s = (children.get(cur.uuid) ?? []).filter((c) => !next.some((n) => n.uuid === c));
        while (s.length > 0) {
          const u = s.pop() as string;
          segOf.set(u, seg);
          s.push(...(children.get(u) ?? []));
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

  const total = session.entries.length;
  const notes: string[] = [];
  const collapsedRuns = segments.filter((s) => s.entries.length + s.folded > 1).length;
  if (collapsedRuns > 0)
    notes.push(
      collapsedRuns === 1
        ? 'A linear run is drawn as one node, with its entry count.'
        : `${collapsedRuns} linear runs are drawn as one node each, with their entry count.`,
    );

  const sidechainType = new Map(session.sidechains.map((s) => [s.id, s.agentType]));
  const branchIndexByHead = new Map(session.branches.map((b, i) => [b.head, i]));

  // Level 1: collapse sidechains and abandoned branches when there are too many nodes.
  let drawn = segments;
  const merged = new Map<string, Segment>();
  if (drawn.length > maxNodes) {
    const groupKey = (s: Segment): string | null => {
      if (s.sidechain) return `sc:${s.sidechain}`;
      if (s.kind === 'abandoned') {
        let top: Segment = s;
        while (top.parent && top.parent.kind === 'abandoned') top = top.parent;
        return `ab:${top.id}`;
      }
      return null;
    };
    const kept: Segment[] = [];
    for (const s of drawn) {
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
      if (s.parent)
        s.parent = segOf.get(s.parent.entries[s.parent.entries.length - 1]?.uuid ?? '') ?? s.parent;
    }
    notes.push(
      `Sidechains and abandoned branches are drawn as one node each, to keep the graph under ${maxNodes} nodes.`,
    );
    drawn = kept;
  }

  // Level 2: cut.
  let more: Segment | null = null;
  if (drawn.length > maxNodes) {
    const cut = drawn.slice(maxNodes - 1);
    drawn = drawn.slice(0, maxNodes - 1);
    const hiddenEntries = cut.reduce((a, s) => a + s.entries.length + s.folded, 0);
    more = {
      id: `n${segments.length}`,
      entries: [],
      folded: hiddenEntries,
      parent: null,
      kind: 'more',
      sidechain: null,
      label: `${cut.length} more nodes (${hiddenEntries} entries) not drawn`,
      href: null,
    };
    notes.push(
      `${cut.length} further nodes (${hiddenEntries} entries) are not drawn; the transcript has them all.`,
    );
  }
  const drawnSet = new Set(drawn);

  // Labels and links.
  for (const s of drawn) {
    const first = s.entries[0];
    const count = s.entries.length + s.folded;
    if (!first) continue;
    if (s.kind === 'compaction') {
      const c = compactions.get(first.uuid);
      const tokens = c && c.preTokens !== null ? ` ${short(c.preTokens)} to ${short(c.postTokens)}` : '';
      s.label = `${c?.kind === 'micro' ? 'Microcompaction' : 'Compaction'}${c?.trigger ? ` ${c.trigger}` : ''}${tokens}`;
    } else {
      const prompt = s.entries.find(
        (e) => e.kind === 'prompt' && (e.actor === 'human' || e.actor === 'claude-as-user'),
      );
      const said = prompt ?? s.entries.find((e) => promptText(e) !== '');
      const tools = [
        ...new Set(
          s.entries.flatMap((e) => e.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))),
        ),
      ];
      const text = said
        ? mermaidLabel(promptText(said), 40)
        : tools.length > 0
          ? mermaidLabel(tools.slice(0, 3).join(', ') + (tools.length > 3 ? ' …' : ''), 40)
          : '';
      s.label = `${count} ${count === 1 ? 'entry' : 'entries'}${text ? ` · ${text}` : ''}`;
      if (merged.size > 0 && s.kind === 'abandoned') s.label = `Abandoned branch · ${count} entries`;
    }
    if (s.sidechain && merged.has(`sc:${s.sidechain}`)) {
      s.label = `${mermaidLabel(sidechainType.get(s.sidechain) ?? 'agent', 30)} · ${count} entries`;
    }
    const branchIndex = branchIndexByHead.get(first.uuid);
    s.href =
      s.sidechain && options.sidechainHref
        ? s.kind === 'sidechain' && !merged.has(`sc:${s.sidechain}`) && options.entryHref
          ? options.entryHref(first)
          : options.sidechainHref(s.sidechain)
        : branchIndex !== undefined && options.branchHref
          ? options.branchHref(branchIndex)
          : (options.entryHref?.(first) ?? null);
  }

  const lines: string[] = ['flowchart TD'];
  const node = (s: Segment): string => {
    const label = mermaidLabel(s.label, 60) || '…';
    return s.kind === 'compaction' ? `${s.id}{{"${label}"}}:::compaction` : `${s.id}["${label}"]:::${s.kind}`;
  };
  const mainSegs = drawn.filter((s) => !s.sidechain);
  for (const s of mainSegs) lines.push(`  ${node(s)}`);
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
    for (const s of segs) lines.push(`    ${node(s)}`);
    lines.push('  end');
  }
  if (more) lines.push(`  ${more.id}["${mermaidLabel(more.label, 60)}"]:::more`);

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
  lines.push(
    '  classDef active fill:#dbeafe,stroke:#2563eb,color:#0f172a',
    '  classDef abandoned fill:#f1f5f9,stroke:#94a3b8,color:#475569,stroke-dasharray:4 3',
    '  classDef sidechain fill:#ede9fe,stroke:#7c3aed,color:#1e1b4b',
    '  classDef compaction fill:#ffedd5,stroke:#ea580c,color:#431407',
    '  classDef more fill:#fef9c3,stroke:#ca8a04,color:#422006',
  );
  if (dashed.length > 0) lines.push(`  linkStyle ${dashed.join(',')} stroke:#94a3b8,stroke-dasharray:4 3`);

  const nodes: MermaidNode[] = drawn.map((s) => ({
    id: s.id,
    label: s.label,
    entries: s.entries.length + s.folded,
    href: s.href,
    kind: s.kind,
  }));
  if (more) nodes.push({ id: more.id, label: more.label, entries: more.folded, href: null, kind: 'more' });
  return { text: lines.join('\n'), nodes, entries: total, notes };
}

function short(n: number | null): string {
  if (n === null) return '?';
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}
