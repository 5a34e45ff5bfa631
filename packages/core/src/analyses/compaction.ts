/**
 * Compaction: full compactions (`compact_boundary`, a new root joined to the past by `logicalParentUuid`),
 * micro-compactions (`microcompact_boundary`, in place), the seeds' `compact_system` / `compact_prelude` forms,
 * and the epochs they cut the conversation into.
 */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import { emptyUsage } from '../graph/usage.js';
import type { Entry } from '../model/entry.js';
import type { Compaction, Epoch } from '../model/session.js';
import type { SeedCompactionEvent } from '../read/seed-events.js';

/** Compactions and epochs of a session. */
export interface CompactionResult {
  compactions: Compaction[];
  epochs: Epoch[];
}

/**
 * Finds compactions, resolves their logical parents, and assigns every entry its epoch.
 *
 * @param mainEnd Index one past the last entry of the main file (agent-file entries come after).
 */
export function findCompactions(
  dag: Dag,
  seedEvents: readonly SeedCompactionEvent[],
  mainEnd: number,
  diagnostics: Diagnostic[],
): CompactionResult {
  const { entries } = dag;
  const found: { at: number; compaction: Compaction }[] = [];

  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.kind === 'compact-boundary' && entry.type !== 'compact_system') {
      if (entry.type === 'compact_prelude' && seedCompactionJustBefore(seedEvents, found, i, entries))
        continue;
      found.push({ at: i, compaction: fullCompaction(entry, dag, diagnostics) });
    } else if (entry.kind === 'microcompact-boundary') {
      found.push({ at: i, compaction: microCompaction(entry) });
    }
  }
  for (const event of seedEvents) {
    if (event.phase === 'conversation_compacted') {
      found.push({ at: event.before - 0.5, compaction: seedCompaction(event, entries) });
    } else if (event.phase === 'conversation_compacting' && !hasCompletion(seedEvents, event)) {
      const compaction = seedCompaction(event, entries);
      compaction.complete = false;
      found.push({ at: event.before - 0.5, compaction });
      diagnostics.push(diagnostic('compaction-incomplete', event.source.file, event.source.line));
    }
  }
  found.sort((a, b) => a.at - b.at);

  // Epochs: every complete full compaction of the main conversation opens one.
  const starts: number[] = [];
  const epochs: Epoch[] = [newEpoch(0, null)];
  for (const { at, compaction } of found) {
    const entry = Number.isInteger(at) ? entries[at] : undefined;
    compaction.sidechain = entry?.sidechain ?? null;
    if (compaction.kind === 'full' && compaction.complete && compaction.sidechain === null && at < mainEnd) {
      starts.push(at);
      compaction.epoch = epochs.length;
      epochs.push(newEpoch(epochs.length, compaction.uuid));
    } else {
      compaction.epoch = starts.length;
    }
  }
  assignEpochs(entries, starts, mainEnd, dag);
  for (const entry of entries) {
    const epoch = epochs[entry.epoch]!;
    if (entry.sidechain === null) epoch.entries += 1;
    if (entry.timestamp) {
      if (!epoch.startedAt || entry.timestamp < epoch.startedAt) epoch.startedAt = entry.timestamp;
      if (!epoch.endedAt || entry.timestamp > epoch.endedAt) epoch.endedAt = entry.timestamp;
    }
  }
  // A file with no entries has no conversation, hence no epoch.
  return { compactions: found.map((f) => f.compaction), epochs: entries.length === 0 ? [] : epochs };
}

function newEpoch(index: number, compaction: string | null): Epoch {
  return { index, compaction, entries: 0, startedAt: null, endedAt: null, usage: emptyUsage() };
}

function fullCompaction(entry: Entry, dag: Dag, diagnostics: Diagnostic[]): Compaction {
  const meta = record(entry.extra.compactMetadata);
  const seedMeta = record(entry.extra.metadata);
  const compaction: Compaction = {
    uuid: entry.uuid,
    source: entry.source,
    kind: 'full',
    trigger: trigger(meta.trigger ?? seedMeta.trigger),
    form: entry.type === 'system' ? 'boundary' : 'seed',
    timestamp: entry.timestamp,
    preTokens: numberOrNull(meta.preTokens ?? seedMeta.tokenCount),
    postTokens: numberOrNull(meta.postTokens ?? seedMeta.reducedTokenCount),
    logicalParent: null,
    logicalParentResolution: 'none',
    summaryUuid: null,
    sidechain: null,
    epoch: 0,
    complete: true,
  };
  resolveLogicalParent(compaction, entry, meta, dag, diagnostics);
  const at = dag.index.get(entry.uuid)!;
  const children = dag.children[at]!;
  const summary = children.find((c) => dag.entries[c]!.isCompactSummary);
  compaction.summaryUuid = summary === undefined ? null : dag.entries[summary]!.uuid;
  if (children.length === 0) {
    compaction.complete = false;
    diagnostics.push(
      diagnostic('compaction-incomplete', entry.source.file, entry.source.line, { uuid: entry.uuid }),
    );
  }
  return compaction;
}

/** `logicalParentUuid` when it resolves; else the preserved segment; else a diagnostic. */
function resolveLogicalParent(
  compaction: Compaction,
  entry: Entry,
  meta: Record<string, unknown>,
  dag: Dag,
  diagnostics: Diagnostic[],
): void {
  const written = entry.logicalParentUuid;
  if (written === null) return;
  if (dag.index.has(written)) {
    compaction.logicalParent = written;
    compaction.logicalParentResolution = 'in-file';
    return;
  }
  const segment = record(meta.preservedSegment);
  for (const key of ['tailUuid', 'anchorUuid', 'headUuid']) {
    const uuid = segment[key];
    if (typeof uuid === 'string' && dag.index.has(uuid)) {
      compaction.logicalParent = uuid;
      compaction.logicalParentResolution = 'preserved-segment';
      return;
    }
  }
  compaction.logicalParentResolution = 'dangling';
  diagnostics.push(
    diagnostic('dangling-logical-parent', entry.source.file, entry.source.line, {
      uuid: entry.uuid,
      message: `Compaction ${entry.uuid} continues from ${written}, which is not in the session.`,
    }),
  );
}

function microCompaction(entry: Entry): Compaction {
  const meta = record(entry.extra.microcompactMetadata);
  const pre = numberOrNull(meta.preTokens);
  const saved = numberOrNull(meta.tokensSaved);
  return {
    uuid: entry.uuid,
    source: entry.source,
    kind: 'micro',
    trigger: trigger(meta.trigger),
    form: 'microcompact',
    timestamp: entry.timestamp,
    preTokens: pre,
    postTokens: pre !== null && saved !== null ? pre - saved : null,
    logicalParent: null,
    logicalParentResolution: 'none',
    summaryUuid: null,
    sidechain: null,
    epoch: 0,
    complete: true,
  };
}

/** The seeds' `compact_system` compaction; its logical parent is that of the entry that starts the new epoch. */
function seedCompaction(event: SeedCompactionEvent, entries: readonly Entry[]): Compaction {
  const meta = event.metadata;
  const next = entries[event.before];
  let summaryUuid: string | null = null;
  for (let i = event.before; i < Math.min(entries.length, event.before + 3); i++) {
    if (entries[i]!.isCompactSummary) summaryUuid = entries[i]!.uuid;
  }
  const logical = next?.parent === null ? next.logicalParentUuid : null;
  return {
    uuid: event.uuid,
    source: event.source,
    kind: 'full',
    trigger: trigger(meta.trigger),
    form: 'seed',
    timestamp: next?.timestamp ?? null,
    preTokens: numberOrNull(meta.tokenCount),
    postTokens: numberOrNull(meta.reducedTokenCount),
    logicalParent: logical,
    logicalParentResolution: logical ? 'in-file' : 'none',
    summaryUuid,
    sidechain: null,
    epoch: 0,
    complete: true,
  };
}

function hasCompletion(events: readonly SeedCompactionEvent[], start: SeedCompactionEvent): boolean {
  const at = events.indexOf(start);
  for (let i = at + 1; i < events.length; i++) {
    if (events[i]!.phase === 'conversation_compacted') return true;
    if (events[i]!.phase === 'conversation_compacting') return false;
  }
  return false;
}

/** A `compact_prelude` right after a seeds' `conversation_compacted` is the same compaction, not a second. */
function seedCompactionJustBefore(
  events: readonly SeedCompactionEvent[],
  found: readonly { at: number }[],
  at: number,
  entries: readonly Entry[],
): boolean {
  for (const event of events) {
    if (event.phase !== 'conversation_compacted' || event.before > at) continue;
    let between = false;
    for (let i = event.before; i < at; i++)
      if (entries[i]!.kind === 'prompt' || entries[i]!.kind === 'assistant') between = true;
    if (!between && !found.some((f) => f.at > event.before - 0.5 && f.at < at)) return true;
  }
  return false;
}

/**
 * Main-file entries take the epoch of their file position; agent-file entries take their spawning call's.
 */
function assignEpochs(entries: Entry[], starts: readonly number[], mainEnd: number, dag: Dag): void {
  let epoch = 0;
  let next = 0;
  for (let i = 0; i < mainEnd; i++) {
    while (next < starts.length && starts[next]! <= i) {
      epoch += 1;
      next += 1;
    }
    entries[i]!.epoch = epoch;
  }
  // Agent files: an entry takes the epoch of its root's spawning entry (set by sidechains.ts), found by
  // walking up with memoization so that deep chains stay linear.
  const known = new Int32Array(entries.length).fill(-1);
  for (let i = 0; i < mainEnd; i++) known[i] = entries[i]!.epoch;
  const path: number[] = [];
  for (let i = mainEnd; i < entries.length; i++) {
    path.length = 0;
    let at = i;
    let epoch = 0;
    while (known[at] === -1 && path.length <= entries.length) {
      path.push(at);
      const up = dag.parent[at]!;
      if (up >= 0) {
        at = up;
        continue;
      }
      const spawn = entries[at]!.parent;
      const spawnAt = spawn === null ? undefined : dag.index.get(spawn);
      if (spawnAt === undefined || path.includes(spawnAt)) break;
      at = spawnAt;
    }
    if (known[at]! >= 0) epoch = known[at]!;
    for (const p of path) {
      known[p] = epoch;
      entries[p]!.epoch = epoch;
    }
  }
}

function trigger(value: unknown): Compaction['trigger'] {
  if (value === 'auto' || value === 'automatic') return 'auto';
  if (value === 'manual') return 'manual';
  return null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
