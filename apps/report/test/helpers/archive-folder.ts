import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '@cctrail/core';
import { costTotals, responseCosts, sessionCost, sessionDuplicates } from '@cctrail/core/archive';
import type { ArchiveIndex, ArchiveSessionSummary, Session } from '../../src/views/model.js';
import { usage } from './session-parts.js';

/** An archive folder as the CLI writes it, made of hand-made sessions (`demo.ts` re-exports it). */

/** The index line of a session, with the session that contains it when there is one. */
export function summaryOf(
  s: Session,
  file: string,
  duplicateOf: string | null = null,
): ArchiveSessionSummary {
  return {
    id: s.id,
    file,
    title: s.title,
    firstPrompt: s.firstPrompt,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    durationMs: s.startedAt && s.endedAt ? Date.parse(s.endedAt) - Date.parse(s.startedAt) : null,
    entries: s.entries.length,
    forks: s.branchPoints.filter((b) => b.kind === 'rewind' || b.kind === 'retry').length,
    abandonedEntries: s.entries.filter((e) => !e.active).length,
    sidechains: s.sidechains.length,
    compactions: s.compactions.length,
    toolCalls: s.tools.length,
    usage: s.usage.total,
    cost: (s.cost ?? sessionCost(s)).total,
    duplicateOf,
    diagnostics: { error: 0, warning: s.diagnostics.length, info: 0 },
    sources: [`${s.id}.jsonl`],
  };
}

/** Writes an archive folder: `projects` maps a project id to its sessions; returns the folder. */
export function writeArchive(
  dir: string,
  projects: { id: string; cwd: string | null; sessions: Session[] }[],
  extra: (index: ArchiveIndex) => void = () => {},
): string {
  mkdirSync(dir, { recursive: true });
  const index: ArchiveIndex = {
    schemaVersion: SCHEMA_VERSION,
    generator: { name: 'cctrail', version: '0.1.0' },
    projects: projects.map((p) => {
      mkdirSync(join(dir, p.id), { recursive: true });
      const duplicates = sessionDuplicates(p.sessions);
      return {
        slug: p.id,
        id: p.id,
        cwd: p.cwd,
        sessions: p.sessions.map((s, i) => {
          const file = `${p.id}/${s.id}.json`;
          writeFileSync(join(dir, file), JSON.stringify(s));
          return summaryOf(s, file, duplicates[i]);
        }),
      };
    }),
    usage: usage(0),
    cost: costTotals(
      projects.flatMap((p) => p.sessions.map((s) => ({ project: p.id, costs: responseCosts(s) }))),
    ),
  };
  extra(index);
  writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
  return dir;
}
