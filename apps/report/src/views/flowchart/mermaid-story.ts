import { forkClass } from '@cctrail/core';
import type { Entry, Session } from '../model.js';
import { isTurnStart } from '../transcript/cards.js';
import { ownAfterGaps } from './story-gaps.js';
import type { FlowKind, FlowNode } from './story-node.js';

/**
 * The first step of the flowchart (`mermaid.ts`): the session told as nodes that a reader recognises — a turn
 * (a user prompt and everything that answered it), a full compaction, the abandoned branches of one rewind or
 * retry, a sub-agent. Every entry belongs to exactly one node; recording artefacts (progress, hooks,
 * attachments, parallel tool-use forks, side commands, microcompactions) fold into the turn they happened in
 * and never become nodes. One pass over the entries with memoised ownership: linear in the session's size.
 */

export type { FlowKind, FlowNode } from './story-node.js';

/** Most sub-agents (or abandoned-branch nodes) drawn from one node before they fold into one. */
const FAN_OUT = 6;
/** Deepest sub-agent nesting drawn; deeper agents fold into their ancestor at this depth. */
const NESTING = 3;

function entryErrors(e: Entry): number {
  let n = e.kind === 'api-error' ? 1 : 0;
  for (const b of e.content) if (b.type === 'tool_result' && b.isError) n++;
  return n;
}

/** The folded-into root of a node. */
function rootOf(n: FlowNode): FlowNode {
  let r = n;
  while (r.into) r = r.into;
  let c = n;
  while (c.into && c.into !== r) {
    const next: FlowNode = c.into;
    c.into = r;
    c = next;
  }
  return r;
}

/** Builds the story nodes of a session, in drawing order; every entry is counted in one of them. */
export function sessionStory(session: Session): FlowNode[] {
  const byId = new Map(session.entries.map((e) => [e.uuid, e]));
  const fullBoundary = new Set(
    session.compactions.flatMap((c) => (c.kind === 'full' && c.uuid && c.sidechain === null ? [c.uuid] : [])),
  );
  const nodes: FlowNode[] = [];
  const make = (kind: FlowKind, first: Entry, key: string | null = null): FlowNode => {
    const n: FlowNode = {
      id: `n${nodes.length}`,
      kind,
      text: '',
      entries: 0,
      errors: 0,
      tools: new Set(),
      first,
      parent: null,
      epoch: first.epoch,
      parallelGroup: null,
      merged: 0,
      into: null,
      key,
      fork: null,
      gap: false,
    };
    nodes.push(n);
    return n;
  };
  const owner = new Map<string, FlowNode>();
  const agents = new Map<string, FlowNode>();
  const branches = new Map<string, FlowNode>();
  const mainActive = (e: Entry) => e.sidechain === null && e.active;
  const answered = new Set<FlowNode>();

  // Pass 1: the nodes that entries start (turns, full compactions), sub-agents and abandoned branches.
  for (const e of session.entries) {
    if (e.sidechain !== null) {
      if (!agents.has(e.sidechain)) agents.set(e.sidechain, make('sidechain', e, e.sidechain));
      owner.set(e.uuid, agents.get(e.sidechain)!);
    } else if (!e.active) {
      const key = e.branchPoint ?? '';
      if (!branches.has(key)) branches.set(key, make('abandoned', e, key));
      owner.set(e.uuid, branches.get(key)!);
    } else if (fullBoundary.has(e.uuid)) owner.set(e.uuid, make('compaction', e));
    else if (isTurnStart(e)) owner.set(e.uuid, make('active', e));
  }
  // Pass 2: every other entry of the main conversation belongs to the node of its nearest owned ancestor.
  let pending: Entry[] = [];
  const path: Entry[] = [];
  for (const e of session.entries) {
    if (owner.has(e.uuid)) continue;
    let cur: Entry | undefined = e;
    while (cur && !owner.has(cur.uuid) && mainActive(cur) && path.length <= session.entries.length) {
      path.push(cur);
      cur = cur.parent === null ? undefined : byId.get(cur.parent);
    }
    const found = cur ? owner.get(cur.uuid) : undefined;
    if (found) for (const p of path) owner.set(p.uuid, found);
    else pending.push(...path);
    path.length = 0;
  }
  // Entries with no start above them: hooks before the first prompt belong to the first turn; a tree whose root
  // comes later (its parent is not in the file: a resumed or cut session) continues the turn before it, after a gap.
  const firstTurn = nodes.find((n) => n.kind === 'active') ?? null;
  const afterGap = new Set<string>();
  if (pending.length > 0) {
    const home = firstTurn ?? make('active', pending[0]!);
    ownAfterGaps(session, byId, nodes, pending, (e, before) => {
      owner.set(e.uuid, before ?? home);
      if (before) afterGap.add(e.uuid);
    });
    pending = [];
  }
  countEntries(session, owner);
  // A typed command that nothing answered (`/mcp`, `/status`) is not a turn: it folds into the turn it was typed in.
  for (const n of nodes) {
    if (n.kind !== 'active' || n.first.kind !== 'command' || answered.has(n) || n === firstTurn) continue;
    const up = n.first.parent === null ? undefined : owner.get(n.first.parent);
    if (up && rootOf(up) !== n) n.into = rootOf(up);
  }
  linkParents(session, nodes, owner, afterGap);
  describeForks(session, branches);
  foldAgents(nodes, agents);
  foldFanOut(nodes);
  return gather(nodes);

  function countEntries(s: Session, own: Map<string, FlowNode>): void {
    for (const e of s.entries) {
      const n = own.get(e.uuid)!;
      n.entries++;
      n.errors += entryErrors(e);
      if (e.kind === 'assistant' || e.kind === 'api-error') answered.add(n);
      for (const b of e.content) if (b.type === 'tool_use') n.tools.add(b.name);
    }
  }
}

/** Adds the counts of every folded node to the node it folded into; returns the nodes drawn. */
function gather(nodes: FlowNode[]): FlowNode[] {
  const drawn: FlowNode[] = [];
  for (const n of nodes) {
    if (!n.into) {
      drawn.push(n);
      continue;
    }
    const r = rootOf(n);
    r.entries += n.entries;
    r.errors += n.errors;
    r.merged++;
    for (const t of n.tools) r.tools.add(t);
  }
  for (const n of drawn) {
    if (n.parent) n.parent = rootOf(n.parent);
    if (n.parent === n) n.parent = null;
  }
  return drawn;
}

/**
 * Each node's parent: a turn's is the owner of its prompt's parent; a compaction's is its logical parent's.
 * A turn whose prompt starts a later tree, or hangs below one (`afterGap`), continues the turn before it and is
 * marked `gap`.
 */
function linkParents(
  session: Session,
  nodes: FlowNode[],
  owner: Map<string, FlowNode>,
  afterGap: ReadonlySet<string>,
): void {
  const logical = new Map(
    session.compactions.flatMap((c) => (c.uuid ? [[c.uuid, c.logicalParent] as const] : [])),
  );
  const sidechains = new Map(session.sidechains.map((s) => [s.id, s]));
  const ownerOf = (uuid: string | null | undefined) => {
    const n = uuid ? owner.get(uuid) : undefined;
    return n ? rootOf(n) : null;
  };
  let previous: FlowNode | null = null;
  const turns: FlowNode[] = [];
  for (const n of nodes) {
    if (n.into) continue;
    const e = n.first;
    if (n.kind === 'sidechain') {
      const sc = sidechains.get(n.key ?? '');
      n.parallelGroup = sc?.parallelGroup ?? null;
      n.parent =
        ownerOf(sc?.spawn?.entryUuid) ?? ownerOf(e.parent) ?? turnAt(turns, sc?.startedAt ?? e.timestamp);
    } else if (n.kind === 'abandoned') {
      n.parent = ownerOf(n.key) ?? previous;
    } else {
      const up =
        n.kind === 'compaction'
          ? (ownerOf(logical.get(e.uuid) ?? e.logicalParentUuid) ?? previous)
          : (ownerOf(e.parent) ??
            (e.parent === null && e.logicalParentUuid ? ownerOf(e.logicalParentUuid) : null));
      n.parent = up === n ? null : (up ?? previous);
      n.gap =
        previous !== null &&
        n.kind === 'active' &&
        ((e.parent === null && !e.logicalParentUuid) || (e.parent !== null && afterGap.has(e.parent)));
      previous = n;
      turns.push(n);
    }
    if (n.parent === n) n.parent = null;
  }
}

/** The last turn that started at or before `at` (the first turn when none). */
function turnAt(turns: readonly FlowNode[], at: string | null): FlowNode | null {
  let best: FlowNode | null = turns[0] ?? null;
  if (!at) return best;
  for (const t of turns) if (t.first.timestamp && t.first.timestamp <= at) best = t;
  return best;
}

/** Names each branch node's fork: a rewind or a retry. */
function describeForks(session: Session, branches: Map<string, FlowNode>): void {
  const kinds = new Map(session.branchPoints.map((b) => [b.uuid, b.kind]));
  for (const [key, n] of branches) {
    const kind = kinds.get(key);
    n.fork = kind && forkClass(kind) === 'retry' ? 'retry' : 'rewind';
  }
}

/** Sub-agents nested deeper than `NESTING` fold into their ancestor at that depth. */
function foldAgents(nodes: FlowNode[], agents: Map<string, FlowNode>): void {
  const level = new Map<FlowNode, number>();
  const levelOf = (start: FlowNode): number => {
    const chain: FlowNode[] = [];
    let n: FlowNode | null = start;
    while (n && n.kind === 'sidechain' && !level.has(n) && chain.length <= nodes.length) {
      chain.push(n);
      n = n.parent;
    }
    let base = n && level.has(n) ? level.get(n)! : 0;
    for (let i = chain.length - 1; i >= 0; i--) level.set(chain[i]!, ++base);
    return level.get(start) ?? 0;
  };
  // The ancestor each deep node folds into, kept so that a chain is walked once, not once per agent in it.
  const topOf = new Map<FlowNode, FlowNode>();
  const topAt = (start: FlowNode): FlowNode => {
    const chain: FlowNode[] = [];
    let top: FlowNode = start;
    while ((level.get(top) ?? 0) > NESTING && top.parent && !topOf.has(top)) {
      chain.push(top);
      top = top.parent;
    }
    top = topOf.get(top) ?? top;
    for (const c of chain) topOf.set(c, top);
    return top;
  };
  for (const n of agents.values()) {
    if (levelOf(n) <= NESTING) continue;
    n.into = rootOf(topAt(n));
  }
}

/** Past `FAN_OUT` sub-agents (or branch nodes) under one node, they fold into the first of them. */
function foldFanOut(nodes: FlowNode[]): void {
  const byParent = new Map<FlowNode, FlowNode[]>();
  for (const n of nodes) {
    if (n.into || !n.parent || (n.kind !== 'sidechain' && n.kind !== 'abandoned')) continue;
    const key = rootOf(n.parent);
    const list = byParent.get(key) ?? [];
    list.push(n);
    byParent.set(key, list);
  }
  for (const list of byParent.values()) {
    for (const kind of ['sidechain', 'abandoned'] as const) {
      const same = list.filter((n) => n.kind === kind);
      if (same.length <= FAN_OUT) continue;
      const head = same[0]!;
      for (const n of same.slice(1)) n.into = head;
    }
  }
}
