import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildSession, markDuplicates, type Session } from '@cctrail/core';
import { discover, sessionSource } from '@cctrail/core/node';

/** The repository's fixture scenarios (`fixtures/<scenario>/<project>/…`). */
export const FIXTURES = resolve(import.meta.dirname, '../../../../fixtures');

/** Builds every fixture session with the real core engine, grouped by project slug. */
export async function fixtureProjects(): Promise<{ id: string; cwd: string | null; sessions: Session[] }[]> {
  const scenarios = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory());
  const out: { id: string; cwd: string | null; sessions: Session[] }[] = [];
  for (const scenario of scenarios) {
    const root = join(FIXTURES, scenario.name);
    const found = await discover([root]);
    for (const project of found.projects) {
      const sessions: Session[] = [];
      for (const s of project.sessions)
        sessions.push(await buildSession(await sessionSource(s, (p) => relative(root, p))));
      markDuplicates(sessions);
      out.push({
        id: `${scenario.name}--${project.slug}`,
        cwd: sessions.find((s) => s.project.cwd)?.project.cwd ?? project.slug,
        sessions,
      });
    }
  }
  return out;
}
