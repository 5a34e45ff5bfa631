import { activeEntries, branchEntries, childrenOf, type SessionCost } from '@cctrail/core';
import { agentRunOf } from '../agents/agents.js';
import type { Entry, Session, ToolCall } from '../model.js';
import { transcriptPages } from '../transcript/paginate.js';
import type { ManifestBranch, ManifestSidechain } from './site-model.js';

/** What the site model keeps of a session file: its figures that the index line does not have. */
export interface CachedPart {
  activeEntries: number;
  /** Pages of the active path (`transcriptPages`). */
  activePages: number;
  models: string[];
  sidechains: Omit<ManifestSidechain, 'slug'>[];
  branches: ManifestBranch[];
  loadErrors: string[];
  /** What the session cost, as its file holds it. */
  cost?: SessionCost | null;
}

/**
 * How a part counts a session's transcripts: from its loaded entries (`loadedCounts`), or, for a session read
 * page by page, from the marks of its entries (`build/paged-part.ts`).
 */
export interface TranscriptCounts {
  activeEntries: number;
  activePages: number;
  /** Pages of a sidechain's transcript, by its id. */
  sidechainPages: (id: string) => number;
}

/** The counts of a loaded session's transcripts. */
function loadedCounts(session: Session): TranscriptCounts {
  const entriesBy = new Map<string, Entry[]>();
  for (const e of session.entries) {
    if (e.sidechain === null) continue;
    const list = entriesBy.get(e.sidechain) ?? [];
    list.push(e);
    entriesBy.set(e.sidechain, list);
  }
  const active = activeEntries(session);
  return {
    activeEntries: active.length,
    activePages: transcriptPages(active).length,
    sidechainPages: (id) => transcriptPages(entriesBy.get(id) ?? []).length,
  };
}

/**
 * Summarizes one session for the site model.
 *
 * @param counts How its transcripts are counted (default: from its loaded entries).
 */
export function summarizeSession(
  session: Session,
  counts: TranscriptCounts = loadedCounts(session),
): CachedPart {
  // Tool calls grouped once: a session may have thousands of sidechains.
  const toolsBy = new Map<string, ToolCall[]>();
  for (const t of session.tools) {
    if (t.sidechain === null) continue;
    const list = toolsBy.get(t.sidechain) ?? [];
    list.push(t);
    toolsBy.set(t.sidechain, list);
  }
  const children = session.branches.length > 0 ? childrenOf(session.entries) : undefined;
  return {
    activeEntries: counts.activeEntries,
    activePages: counts.activePages,
    models: session.models ?? [],
    sidechains: session.sidechains.map((sc) => ({
      ...agentRunOf(session, sc, toolsBy.get(sc.id) ?? []),
      pages: counts.sidechainPages(sc.id),
    })),
    branches: session.branches.map((b, index) => ({
      index,
      branchPoint: b.branchPoint,
      head: b.head,
      entries: b.entries,
      startedAt: b.startedAt,
      pages: transcriptPages(branchEntries(session, b, children)).length,
    })),
    loadErrors: [],
    cost: session.cost ?? null,
  };
}

/** The part of a session file that could not be loaded: no transcript, and the reasons. */
export function failedPart(errors: string[]): CachedPart {
  return { activeEntries: 0, activePages: 1, models: [], sidechains: [], branches: [], loadErrors: errors };
}
