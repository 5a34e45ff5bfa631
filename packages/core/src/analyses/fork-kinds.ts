/**
 * Fork kinds in four classes: what a multi-child node means to a reader. Rewinds and retries are real forks
 * (they leave abandoned branches); side commands and recording artefacts leave nothing abandoned.
 */
import type { BranchPoint, ForkKind } from '../model/session.js';

/** The class of a fork kind. */
export type ForkClass = 'rewind' | 'retry' | 'side-command' | 'artefact';

/** Branch points of a session counted by class. */
export interface ForkCounts {
  /** The user re-prompted from an earlier point. */
  rewinds: number;
  /** A response was regenerated. */
  retries: number;
  /** Local slash commands beside the conversation. */
  sideCommands: number;
  /** Recording artefacts: tool progress, hooks, attachments, parallel tool calls, replays. */
  artefacts: number;
}

/** The class of a fork kind: `rewind`, `retry`, `side-command` or `artefact`. */
export function forkClass(kind: ForkKind): ForkClass {
  return kind === 'rewind' || kind === 'retry' || kind === 'side-command' ? kind : 'artefact';
}

/** True for the kinds that leave abandoned branches (rewinds and retries). */
export function isRealFork(kind: ForkKind): boolean {
  return kind === 'rewind' || kind === 'retry';
}

/** Counts branch points by class. */
export function forkCounts(points: readonly Pick<BranchPoint, 'kind'>[]): ForkCounts {
  const counts: ForkCounts = { rewinds: 0, retries: 0, sideCommands: 0, artefacts: 0 };
  for (const p of points) {
    const c = forkClass(p.kind);
    if (c === 'rewind') counts.rewinds++;
    else if (c === 'retry') counts.retries++;
    else if (c === 'side-command') counts.sideCommands++;
    else counts.artefacts++;
  }
  return counts;
}
