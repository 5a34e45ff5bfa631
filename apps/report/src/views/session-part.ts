import { activeEntries, type SessionCost } from '@cctrail/core';
import { agentRunOf } from './agents.js';
import type { Session, ToolCall } from './model.js';
import { paginate } from './paginate.js';
import type { ManifestBranch, ManifestSidechain } from './site-model.js';

/** What the site model keeps of a session file: its figures that the index line does not have. */
export interface CachedPart {
  activeEntries: number;
  models: string[];
  sidechains: Omit<ManifestSidechain, 'slug'>[];
  branches: ManifestBranch[];
  loadErrors: string[];
  /** What the session cost, as its file holds it. */
  cost?: SessionCost | null;
}

/** Summarizes one loaded session for the site model. */
export function summarizeSession(session: Session): CachedPart {
  // Tool calls grouped once: a session may have thousands of sidechains.
  const toolsBy = new Map<string, ToolCall[]>();
  for (const t of session.tools) {
    if (t.sidechain === null) continue;
    const list = toolsBy.get(t.sidechain) ?? [];
    list.push(t);
    toolsBy.set(t.sidechain, list);
  }
  return {
    activeEntries: activeEntries(session).length,
    models: session.models ?? [],
    sidechains: session.sidechains.map((sc) => {
      const run = agentRunOf(session, sc, toolsBy.get(sc.id) ?? []);
      return { ...run, pages: paginate(sc.entries).length };
    }),
    branches: session.branches.map((b, index) => ({
      index,
      branchPoint: b.branchPoint,
      head: b.head,
      entries: b.entries,
      startedAt: b.startedAt,
      pages: paginate(b.entries).length,
    })),
    loadErrors: [],
    cost: session.cost ?? null,
  };
}

/** The part of a session file that could not be loaded: no transcript, and the reasons. */
export function failedPart(errors: string[]): CachedPart {
  return { activeEntries: 0, models: [], sidechains: [], branches: [], loadErrors: errors };
}
