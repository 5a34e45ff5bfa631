/**
 * The DAG: resolves `parentUuid` links into parent indices, finds roots and orphans, breaks self-parents and
 * cycles, and lists children in file order. Entries are addressed by their index in `entries` (file order:
 * the main file first, then agent files). No recursion: chains are 100k+ deep.
 */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Entry } from '../model/entry.js';

/** The linked graph over a session's entries. */
export interface Dag {
  entries: Entry[];
  /** uuid → index. */
  index: ReadonlyMap<string, number>;
  /** Index of the file each entry comes from. */
  file: Int32Array;
  /** Resolved parent index, -1 for none. */
  parent: Int32Array;
  /** Children in file order (leaves share one empty list, never changed). */
  children: readonly (readonly number[])[];
  roots: number[];
  orphans: number[];
  /** Roots made by cutting a self-parent or a cycle: not real starts of a conversation. */
  broken: Set<number>;
  /** Orphans made by cutting a link across a seeds' compaction: they start an epoch. */
  cut: Set<number>;
}

/**
 * Links entries. A parent is looked up in the entry's own file only: agent files are separate conversations
 * (their roots are attached to their spawning call by `analyses/sidechains.ts`), and `agent-acompact-*` lines point into
 * the parent file without belonging there.
 *
 * @param cutBefore For seeds' compactions: entry index of each boundary; a link from at/after a boundary to
 *   before it is cut (the entry starts the new epoch, logically linked).
 * @param uuids uuid → index of every entry, when the reader already has it (each uuid once).
 */
export function linkDag(
  entries: Entry[],
  file: Int32Array,
  diagnostics: Diagnostic[],
  cutBefore: readonly number[] = [],
  uuids?: ReadonlyMap<string, number>,
): Dag {
  const count = entries.length;
  const index = uuids ?? indexOf(entries);

  const parent = new Int32Array(count).fill(-1);
  const roots: number[] = [];
  const orphans: number[] = [];
  const broken = new Set<number>();
  const cut = new Set<number>();
  for (let i = 0; i < count; i++) {
    const entry = entries[i]!;
    const written = entry.parentUuid;
    if (written === null) {
      roots.push(i);
      continue;
    }
    if (written === entry.uuid) {
      diagnostics.push(diagnostic('self-parent', entry.source.file, entry.source.line, { uuid: entry.uuid }));
      roots.push(i);
      broken.add(i);
      continue;
    }
    const j = index.get(written);
    if (j === undefined || file[j] !== file[i]) {
      orphans.push(i);
      diagnostics.push(
        diagnostic('orphan', entry.source.file, entry.source.line, {
          uuid: entry.uuid,
          message: `Parent ${written} of entry ${entry.uuid} is not in this file; the entry is an alternative root.`,
        }),
      );
      continue;
    }
    const boundary = crossedBoundary(cutBefore, j, i);
    if (boundary) {
      orphans.push(i);
      cut.add(i);
      entry.logicalParentUuid ??= written;
      diagnostics.push(
        diagnostic('compaction-orphan', entry.source.file, entry.source.line, { uuid: entry.uuid }),
      );
      continue;
    }
    parent[i] = j;
    entry.parentUuid = entries[j]!.uuid; // the same value: its copy from the line is let go
  }

  breakCycles(entries, parent, roots, broken, diagnostics);

  // A list per entry would cost a session of a million lines 170 MB while it is built (an empty array grows to
  // 17 slots on its first push): leaves share one empty list and a first child gets a list of its own size.
  const children: number[][] = new Array<number[]>(count).fill(NO_CHILDREN);
  for (let i = 0; i < count; i++) {
    const p = parent[i]!;
    if (p < 0) continue;
    const list = children[p]!;
    if (list === NO_CHILDREN) children[p] = [i];
    else list.push(i);
  }
  for (let i = 0; i < count; i++) entries[i]!.parent = parent[i]! >= 0 ? entries[parent[i]!]!.uuid : null;
  return { entries, index, file, parent, children, roots, orphans, broken, cut };
}

/** The children of every leaf: one frozen list. */
const NO_CHILDREN = Object.freeze([]) as unknown as number[];

function indexOf(entries: readonly Entry[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) index.set(entries[i]!.uuid, i);
  return index;
}

function crossedBoundary(boundaries: readonly number[], from: number, to: number): boolean {
  for (const b of boundaries) if (from < b && b <= to) return true;
  return false;
}

/** Walks up from every entry; a walk that meets its own path is a cycle, cut at its earliest entry. */
function breakCycles(
  entries: Entry[],
  parent: Int32Array,
  roots: number[],
  broken: Set<number>,
  diagnostics: Diagnostic[],
): void {
  const state = new Uint8Array(entries.length); // 0 new, 1 on the current walk, 2 done
  const path: number[] = [];
  for (let start = 0; start < entries.length; start++) {
    if (state[start] !== 0) continue;
    path.length = 0;
    let at = start;
    while (at >= 0 && state[at] === 0) {
      state[at] = 1;
      path.push(at);
      at = parent[at]!;
    }
    if (at >= 0 && state[at] === 1) {
      const cycle = path.slice(path.indexOf(at));
      // biome-ignore lint/complexity/useMathMinMax: a spread of a 100k-entry cycle would overflow the stack.
      const earliest = cycle.reduce((a, b) => (b < a ? b : a));
      const entry = entries[earliest]!;
      parent[earliest] = -1;
      roots.push(earliest);
      broken.add(earliest);
      diagnostics.push(
        diagnostic('parent-cycle', entry.source.file, entry.source.line, {
          uuid: entry.uuid,
          message: `Parent links form a cycle of ${cycle.length} entries; the link of ${entry.uuid} was cut.`,
        }),
      );
    }
    for (const i of path) state[i] = 2;
  }
  roots.sort((a, b) => a - b);
}
