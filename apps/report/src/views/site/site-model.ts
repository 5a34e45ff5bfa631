import type { Diagnostic, SessionCost } from '@cctrail/core';
import type { Conversation, CostTotals, TeammateLink } from '@cctrail/core/archive';
import type { AgentRun } from '../agents/agents.js';
import type { ArchiveSessionSummary } from '../model.js';

/**
 * The site model: everything the pages need to know about the archive without opening session files (routes,
 * slugs, page counts, sidechains, branches, agent runs). The build computes it (`build/manifest.ts`) from the
 * archive's index and one part per session; the view models read it.
 */

/** What a lead's spawn knows of its teammate's own session. */
export interface SpawnTeammate {
  name: string;
  team: string | null;
  /** The teammate's session: project slug and session slug (routes). */
  project: string;
  slug: string;
  session: string;
  result: string | null;
}

/** What a teammate's session knows of the session that spawned it. */
interface TeammateOf {
  name: string;
  team: string | null;
  project: string;
  slug: string;
  session: string;
  /** Slug of the spawn's sidechain in the lead session (its agent page). */
  sidechain: string;
}

/** A sidechain as the pages list it. */
export interface ManifestSidechain extends AgentRun {
  /** Unique within its session, used in the route. */
  slug: string;
  pages: number;
  /** A named spawn that ran as its own session file (`applyTeammates`). */
  teammate?: SpawnTeammate;
}

/** An abandoned branch as the pages list it. */
export interface ManifestBranch {
  /** Position in `Session.branches`. */
  index: number;
  branchPoint: string;
  head: string;
  entries: number;
  startedAt: string | null;
  pages: number;
}

/** One session of the manifest. */
export interface ManifestSession {
  id: string;
  /** Unique within its project, used in routes. */
  slug: string;
  /** Absolute path of the session file. */
  file: string;
  /** Cache key: changes when the file or the renderer changes. */
  key: string;
  summary: ArchiveSessionSummary;
  /** Problems reading the file; the session is then listed with them and has no transcript. */
  loadErrors: string[];
  activeEntries: number;
  pages: number;
  models: string[];
  sidechains: ManifestSidechain[];
  branches: ManifestBranch[];
  /** What the session cost (null for a session file written without cost). */
  cost: SessionCost | null;
  /** The session is a teammate's own file, spawned from another session (`applyTeammates`). */
  teammateOf?: TeammateOf;
}

/** One project of the manifest. */
interface ManifestProject {
  /** Archive folder id. */
  id: string;
  /** Unique (case-insensitively) among projects, used in routes. */
  slug: string;
  /** Display name: the working directory when known. */
  name: string;
  /** Folder name under `projects/` (the index's `slug`), the key of the index's cost by project. */
  folder: string | null;
  sessions: ManifestSession[];
}

/** The site manifest. */
export interface SiteManifest {
  title: string;
  generator: string;
  dataDir: string;
  cacheDir: string | null;
  projects: ManifestProject[];
  /** Agent types with their unique slug for `/agents/<slug>/` (an array: types are hostile keys). */
  agentTypes: { type: string; slug: string }[];
  /** Problems with `index.json` itself. */
  indexErrors: string[];
  /** Input paths the export did not read (`index.json`'s `diagnostics`, `skipped-path`). */
  skipped?: Diagnostic[];
  /** The archive's cost totals from `index.json` (absent for an archive written without cost). */
  cost?: CostTotals;
  /** Conversations that span several session files (`index.json`'s `conversations`). */
  conversations?: Conversation[];
  /** Named spawns joined to teammates' own session files (`index.json`'s `teammates`). */
  teammates?: TeammateLink[];
  /**
   * Cache keys of the sessions whose pages this build renders; absent: all. An incremental rebuild renders
   * only changed sessions (and the site-wide pages) and keeps the other sessions' pages from the last build.
   */
  render?: string[];
  /** Routes of the site-wide pages this build keeps from the last one (their inputs did not change); absent: none. */
  keptPages?: string[];
  /** Repository URL whose commits `git commit` outputs link to (`--repo`). */
  repo?: string;
}

/** Slug of an agent type's page, or null for a type the manifest does not know. */
export function agentSlug(manifest: SiteManifest, type: string): string | null {
  return manifest.agentTypes.find((a) => a.type === type)?.slug ?? null;
}
