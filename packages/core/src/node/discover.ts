import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { comparePlain, plainName, preferPlain } from './gzip-names.js';
import { mapLimited, PEEKS_AT_ONCE, peekSessionId } from './peek.js';
import { compare, isWorkflowFile, sessionFolderFiles } from './session-folder.js';
import {
  fsReason,
  HIDDEN_FOLDER,
  type ListedEntry,
  listFolder,
  type ScanScope,
  type SkippedPath,
  scopeOf,
  uniqueSkips,
} from './skipped-paths.js';

/** The files of one session found on disk. */
export interface DiscoveredSession {
  /** Session id: the main file's name, or the `sessionId` its agent files carry. */
  id: string;
  /** Project slug (the folder name under `projects/`). */
  project: string;
  /** Absolute path of `<id>.jsonl` (or `<id>.jsonl.gz`), null when only agent files exist. */
  mainFile: string | null;
  /** Absolute paths of the session's agent transcripts (flat and `subagents/`). */
  agentFiles: string[];
  /** Absolute paths of `.meta.json` sidecars. */
  metaFiles: string[];
  /** Absolute paths of workflow run snapshots (`<id>/workflows/<runId>.json`) and journals (`journal.jsonl`). */
  workflowFiles?: string[];
}

/** A project folder and its sessions. */
export interface DiscoveredProject {
  slug: string;
  dir: string;
  sessions: DiscoveredSession[];
}

/** What `discover` found. */
export interface Discovery {
  /** Common root of the inputs: source paths are shown relative to it. */
  root: string;
  projects: DiscoveredProject[];
  /** Inputs that could not be read (missing, permission), with the reason. */
  unreadable: { path: string; reason: string }[];
  /** Paths inside the inputs that were not read (links out of the input, permissions, FIFOs…), with the reason. */
  skipped: SkippedPath[];
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
const UUID_LIKE = /^[0-9a-zA-Z][\w.-]*$/;

/**
 * Finds sessions under the given paths: a `projects` folder (one folder per project), one project folder,
 * or transcript files. Agent transcripts are attached to their session, flat (`agent-<id>.jsonl`, matched by
 * the `sessionId` inside) or under `<session>/subagents/`. A gzip-compressed file counts as the file of its
 * name without `.gz` (`<id>.jsonl.gz` is session `<id>`); where a folder holds both, the plain file is read
 * and the `.gz` ignored. Paths found are the files' own (with `.gz`).
 *
 * @param paths Paths as the user gave them.
 * @returns Projects sorted by slug, sessions sorted by id.
 */
export async function discover(paths: readonly string[]): Promise<Discovery> {
  const unreadable: Discovery['unreadable'] = [];
  const skipped: SkippedPath[] = [];
  const byProject = new Map<string, ProjectFiles>();
  const absolute = paths.map((p) => resolve(p));
  const rootParts: string[] = [];

  for (const path of absolute) {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      unreadable.push({ path, reason: fsReason(info) });
      continue;
    }
    rootParts.push(info.isFile() ? dirname(dirname(path)) : path);
    if (info.isFile()) {
      addFile(byProject, path);
    } else if (info.isDirectory()) {
      const result = await scanDirectory(path, byProject, scopeOf(path, skipped));
      if (result) unreadable.push({ path, reason: result });
    } else {
      skipped.push({ path, reason: 'not a regular file (a FIFO, socket or device)' });
    }
  }

  const projects: DiscoveredProject[] = [];
  for (const [dir, files] of [...byProject].sort(([a], [b]) => compare(a, b))) {
    projects.push({ slug: basename(dir), dir, sessions: await groupSessions(dir, files) });
  }
  return { root: commonRoot(rootParts), projects, unreadable, skipped: uniqueSkips(skipped) };
}

interface ProjectFiles {
  mains: Set<string>;
  flatAgents: Set<string>;
  /** session id → agent files and meta files under `<id>/subagents/`. */
  nested: Map<string, { agents: string[]; metas: string[]; workflows: string[] }>;
}

function project(map: Map<string, ProjectFiles>, dir: string): ProjectFiles {
  let files = map.get(dir);
  if (!files) {
    files = { mains: new Set(), flatAgents: new Set(), nested: new Map() };
    map.set(dir, files);
  }
  return files;
}

function addFile(map: Map<string, ProjectFiles>, path: string): void {
  const name = plainName(basename(path));
  const parent = dirname(path);
  // `<project>/<session>/subagents/agent-x.jsonl` given directly.
  if (basename(parent) === 'subagents') {
    const sessionDir = dirname(parent);
    const nested = nestedOf(project(map, dirname(sessionDir)), basename(sessionDir));
    if (name.endsWith('.meta.json')) nested.metas.push(path);
    else nested.agents.push(path);
    return;
  }
  const files = project(map, parent);
  if (AGENT_FILE.test(name)) files.flatAgents.add(path);
  else files.mains.add(path);
}

function nestedOf(files: ProjectFiles, sessionId: string) {
  let nested = files.nested.get(sessionId);
  if (!nested) {
    nested = { agents: [], metas: [], workflows: [] };
    files.nested.set(sessionId, nested);
  }
  return nested;
}

/** How many folder levels below a given path are searched for project folders. */
const MAX_DEPTH = 3;

/**
 * Scans a folder that is a project folder, a folder of project folders, or a folder of those (breadth first,
 * up to `MAX_DEPTH` levels; hidden folders and `node_modules` are skipped).
 */
async function scanDirectory(
  dir: string,
  map: Map<string, ProjectFiles>,
  scope: ScanScope,
): Promise<string | null> {
  const before = scope.skipped.length;
  const top = await listFolder(dir, scope);
  if (scope.skipped.length > before && scope.skipped[before]!.path === dir)
    return scope.skipped.splice(before, 1)[0]!.reason;
  let level: { dir: string; entries: ListedEntry[] }[] = [{ dir, entries: top }];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    // The folders of a level are read at once (their order is restored by sorting projects and sessions).
    const below = await Promise.all(
      level.map(async ({ dir: at, entries }) => {
        const isProject = entries.some((e) => e.isFile() && plainName(e.name).endsWith('.jsonl'));
        if (isProject || (await hasSubagentFolders(at, entries))) {
          await scanProject(at, map, scope);
          return [];
        }
        const folders = entries.filter((e) => e.isDirectory() && e.name !== 'node_modules');
        // Hidden folders are not searched (.git, .cache): each is noted, so none is left out without a word.
        for (const e of folders)
          if (e.name.startsWith('.'))
            scope.skipped.push({ path: join(at, e.name), reason: HIDDEN_FOLDER, hidden: true });
        return Promise.all(
          folders
            .filter((e) => !e.name.startsWith('.'))
            .map(async (entry) => {
              const sub = join(at, entry.name);
              return { dir: sub, entries: await listFolder(sub, scope) };
            }),
        );
      }),
    );
    level = below.flat();
  }
  return null;
}

async function hasSubagentFolders(dir: string, entries: ListedEntry[]): Promise<boolean> {
  const found = await Promise.all(
    entries.map(async (entry) =>
      entry.isDirectory()
        ? ((await stat(join(dir, entry.name, 'subagents')).catch(() => null))?.isDirectory() ?? false)
        : false,
    ),
  );
  return found.includes(true);
}

async function scanProject(dir: string, map: Map<string, ProjectFiles>, scope: ScanScope): Promise<void> {
  const files = project(map, dir);
  const entries = await listFolder(dir, scope);
  // Session folders are listed all at once: one after the other, their round trips add up.
  const subagents = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? sessionFolderFiles(join(dir, entry.name), scope) : Promise.resolve([]),
    ),
  );
  entries.forEach((entry, index) => {
    const path = join(dir, entry.name);
    const name = plainName(entry.name);
    if (entry.isFile() && name.endsWith('.jsonl')) {
      if (AGENT_FILE.test(name)) files.flatAgents.add(path);
      else files.mains.add(path);
    }
    const found = subagents[index]!;
    if (found.length === 0) return;
    const nested = nestedOf(files, entry.name);
    for (const file of found) {
      const name = plainName(basename(file));
      if (isWorkflowFile(file, name)) nested.workflows.push(file);
      else if (name.endsWith('.meta.json')) nested.metas.push(file);
      else if (name.endsWith('.jsonl')) nested.agents.push(file);
    }
  });
}

async function groupSessions(dir: string, files: ProjectFiles): Promise<DiscoveredSession[]> {
  const sessions = new Map<string, DiscoveredSession>();
  const slug = basename(dir);
  const get = (id: string): DiscoveredSession => {
    let session = sessions.get(id);
    if (!session) {
      session = { id, project: slug, mainFile: null, agentFiles: [], metaFiles: [] };
      sessions.set(id, session);
    }
    return session;
  };
  for (const main of preferPlain(files.mains).sort(comparePlain)) {
    get(sessionIdOf(main)).mainFile = main;
  }
  for (const [id, nested] of files.nested) {
    const session = get(id);
    session.agentFiles.push(...preferPlain(nested.agents));
    session.metaFiles.push(...preferPlain(nested.metas));
    const workflows = preferPlain(nested.workflows);
    if (workflows.length > 0) session.workflowFiles = workflows.sort(comparePlain);
  }
  const flatAgents = preferPlain(files.flatAgents).sort(comparePlain);
  const sessionIds = await mapLimited(flatAgents, PEEKS_AT_ONCE, peekSessionId);
  flatAgents.forEach((agent, index) => {
    const sessionId = sessionIds[index];
    const id = sessionId && UUID_LIKE.test(sessionId) ? sessionId : sessionIdOf(agent);
    get(id).agentFiles.push(agent);
  });
  for (const session of sessions.values()) {
    session.agentFiles.sort(comparePlain);
    session.metaFiles.sort(comparePlain);
  }
  return [...sessions.values()].sort((a, b) => compare(a.id, b.id));
}

/** `<dir>/<id>.jsonl` or `<dir>/<id>.jsonl.gz` → `<id>`. */
function sessionIdOf(path: string): string {
  return plainName(basename(path)).replace(/\.jsonl$/, '');
}

function commonRoot(paths: string[]): string {
  if (paths.length === 0) return process.cwd();
  const dirs = paths.map((p) => p.split('/'));
  const first = dirs[0]!;
  let length = first.length;
  for (const parts of dirs) {
    let i = 0;
    while (i < length && i < parts.length && parts[i] === first[i]) i++;
    length = i;
  }
  return first.slice(0, length).join('/') || '/';
}
