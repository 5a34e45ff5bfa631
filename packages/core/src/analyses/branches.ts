/**
 * Branches: tells real forks (a rewind: two or more prompts; a retry: two or more responses) from local slash
 * commands beside the conversation and from the recording artefacts that also give a node several children,
 * picks the active child of each real fork, and marks every entry active or abandoned.
 *
 * Active child: `is_active` where the transcript has it, else the seeds' rule — the last conversational child by
 * file position. That rule is checked against "the ancestor chain of the latest conversational entry"; where the
 * two disagree a diagnostic says so.
 */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import type { Entry } from '../model/entry.js';
import type { Branch, BranchPoint, Compaction, ForkKind, Sidechain } from '../model/session.js';
import { isTypedCommand } from '../normalize/prompt-text.js';
import { abandonSubtree } from './active-path.js';

/** The branch structure of a session. */
export interface BranchResult {
  branchPoints: BranchPoint[];
  branches: Branch[];
  /** Uuid of the last active conversational entry of the main conversation. */
  leaf: string | null;
}

/** Classifies branch points and marks abandoned entries. */
export function findBranches(
  dag: Dag,
  compactions: readonly Compaction[],
  sidechains: readonly Sidechain[],
  diagnostics: Diagnostic[],
): BranchResult {
  const { entries, children } = dag;
  const branchPoints: BranchPoint[] = [];
  const forks: { at: number; active: number; abandoned: number[] }[] = [];

  for (let i = 0; i < entries.length; i++) {
    const all = children[i]!;
    if (all.length < 2) continue;
    const parent = entries[i]!;
    const kids = all.filter((c) => entries[c]!.sidechain === parent.sidechain);
    if (kids.length < 2) continue;
    const candidates = kids.filter((c) => isConversational(entries[c]!, parent));
    const side = candidates.filter((c) => isSideCommand(c, dag));
    const sideSet = new Set(side);
    const conversational = side.length > 0 ? candidates.filter((c) => !sideSet.has(c)) : candidates;
    const kind = classify(parent, kids, conversational, side.length, entries);
    let activeChild: number | null = null;
    if (kind === 'rewind' || kind === 'retry') {
      const marked = conversational.find((c) => entries[c]!.extra.is_active === true);
      activeChild = marked ?? conversational[conversational.length - 1]!;
      forks.push({ at: i, active: activeChild, abandoned: conversational.filter((c) => c !== activeChild) });
    }
    branchPoints.push({
      uuid: parent.uuid,
      kind,
      children: kids.map((c) => entries[c]!.uuid),
      activeChild: activeChild === null ? null : entries[activeChild]!.uuid,
    });
  }

  checkAgainstLatestLeaf(dag, forks, compactions, diagnostics);
  const branches = markAbandoned(dag, forks, sidechains);
  return { branchPoints, branches, leaf: findLeaf(dag) };
}

/** A child that starts a new turn: a prompt, or an assistant line of another API response than its parent. */
function isConversational(child: Entry, parent: Entry): boolean {
  if (child.kind === 'prompt' || isTypedCommand(child)) return true;
  if (child.kind === 'assistant' || child.kind === 'api-error') {
    const parentId = parent.message?.id ?? null;
    return parentId === null || child.message?.id !== parentId;
  }
  return false;
}

/**
 * A typed local command (`/mcp`, `/status`, …) the conversation did not continue from: no prompt or response
 * below it. The walk stops at the first one, and the subtrees of siblings are disjoint, so a parent's children
 * are checked in linear time.
 */
function isSideCommand(child: number, dag: Dag): boolean {
  const { entries, children } = dag;
  if (entries[child]!.kind !== 'command') return false;
  const stack = [child];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const kind = entries[at]!.kind;
    if (kind === 'prompt' || kind === 'assistant' || kind === 'api-error') return false;
    for (const c of children[at]!) stack.push(c);
  }
  return true;
}

function classify(
  parent: Entry,
  kids: number[],
  conversational: number[],
  sideCommands: number,
  entries: readonly Entry[],
): ForkKind {
  if (conversational.length >= 2) {
    const ids = new Set(conversational.map((c) => entries[c]!.message?.id ?? null));
    const allAnswers = conversational.every((c) => {
      const k = entries[c]!.kind;
      return k === 'assistant' || k === 'api-error';
    });
    const allAssistant = conversational.every((c) => entries[c]!.kind === 'assistant');
    if (allAssistant && ids.size === 1 && !ids.has(null)) return 'replay';
    return allAnswers ? 'retry' : 'rewind';
  }
  if (sideCommands > 0 && conversational.length + sideCommands >= 2) return 'side-command';
  if (kids.some((c) => entries[c]!.kind === 'progress')) return 'tool-progress';
  const parentId = parent.message?.id ?? null;
  if (
    parentId !== null &&
    kids.some((c) => entries[c]!.kind === 'assistant' && entries[c]!.message?.id === parentId)
  ) {
    return 'parallel-tools';
  }
  return 'hook';
}

/**
 * Walks from the latest conversational entry of the main conversation up to its root, across compactions by
 * their logical parents, and reports forks where the seeds' rule picked another child.
 */
function checkAgainstLatestLeaf(
  dag: Dag,
  forks: readonly { at: number; active: number }[],
  compactions: readonly Compaction[],
  diagnostics: Diagnostic[],
): void {
  const { entries, parent, index } = dag;
  let latest = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.sidechain === null && (e.kind === 'prompt' || e.kind === 'assistant')) {
      latest = i;
      break;
    }
  }
  if (latest === -1 || forks.length === 0) return;
  const forkAt = new Map(forks.map((f) => [f.at, f.active]));
  const logical = new Map<string, string>();
  for (const c of compactions)
    if (c.uuid !== null && c.logicalParent !== null) logical.set(c.uuid, c.logicalParent);

  const seen = new Uint8Array(entries.length);
  let child = -1;
  let at = latest;
  while (at >= 0 && !seen[at]) {
    seen[at] = 1;
    const active = forkAt.get(at);
    if (active !== undefined && child >= 0 && active !== child) {
      const e = entries[at]!;
      diagnostics.push(
        diagnostic('active-branch-disagreement', e.source.file, e.source.line, {
          uuid: e.uuid,
          message: `At fork ${e.uuid} the active child is ${entries[active]!.uuid}, but the latest entry descends from ${entries[child]!.uuid}.`,
        }),
      );
    }
    child = at;
    let up = parent[at]!;
    if (up < 0) {
      const e = entries[at]!;
      const jump = logical.get(e.uuid) ?? e.logicalParentUuid;
      up = jump ? (index.get(jump) ?? -1) : -1;
      child = -1; // a logical jump does not pass through a fork's child
    }
    at = up;
  }
}

/** Marks the subtree of every abandoned child (and the sidechains spawned from it); returns the branches. */
function markAbandoned(
  dag: Dag,
  forks: readonly { at: number; abandoned: number[] }[],
  sidechains: readonly Sidechain[],
): Branch[] {
  const { entries } = dag;
  const branches: Branch[] = [];
  for (const fork of forks) {
    const point = entries[fork.at]!;
    for (const head of fork.abandoned) {
      if (!entries[head]!.active) continue; // inside a branch already abandoned further up
      branches.push(abandonSubtree(dag, head, point.uuid));
    }
  }
  // Sidechains spawned from an abandoned entry are abandoned with it.
  if (branches.length > 0) {
    const spawnPoint = new Map<string, string>();
    for (const s of sidechains) {
      if (!s.spawn) continue;
      const at = dag.index.get(s.spawn.entryUuid);
      const spawn = at === undefined ? undefined : entries[at];
      if (spawn && !spawn.active && spawn.branchPoint) spawnPoint.set(s.id, spawn.branchPoint);
    }
    if (spawnPoint.size > 0) {
      for (const entry of entries) {
        const point = entry.sidechain === null ? undefined : spawnPoint.get(entry.sidechain);
        if (point && entry.active) {
          entry.active = false;
          entry.branchPoint = point;
        }
      }
    }
  }
  return branches;
}

/**
 * Where the conversation ended: below the last active conversational entry of the main conversation (in file
 * order), the last entry of its active subtree — so trailing hook, progress and timing lines are included.
 */
function findLeaf(dag: Dag): string | null {
  const { entries, children } = dag;
  const rooted = reachableFromRoots(dag);
  const isCandidate = (e: Entry) =>
    e.sidechain === null &&
    e.active &&
    (e.kind === 'prompt' || e.kind === 'assistant' || e.kind === 'tool-result' || e.kind === 'api-error');
  // Prefer the conversation that grows from a real root (or a compaction boundary); trees hanging from an
  // orphan or from a broken cycle count only when there is nothing else.
  let latest = -1;
  for (let i = entries.length - 1; i >= 0 && latest === -1; i--)
    if (rooted[i] && isCandidate(entries[i]!)) latest = i;
  for (let i = entries.length - 1; i >= 0 && latest === -1; i--) if (isCandidate(entries[i]!)) latest = i;
  if (latest === -1) return null;
  let leaf = latest;
  const stack = [latest];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at > leaf) leaf = at;
    for (const c of children[at]!) if (entries[c]!.active && entries[c]!.sidechain === null) stack.push(c);
  }
  return entries[leaf]!.uuid;
}

/** Entries reachable from a root written with a null parent, or from an epoch root cut by a seeds' compaction. */
function reachableFromRoots(dag: Dag): Uint8Array {
  const seen = new Uint8Array(dag.entries.length);
  const stack = [...dag.roots.filter((r) => !dag.broken.has(r)), ...dag.cut];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen[at]) continue;
    seen[at] = 1;
    for (const c of dag.children[at]!) stack.push(c);
  }
  return seen;
}
