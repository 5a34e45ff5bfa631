import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildSession, type Session } from '@cctrail/core';
import { discover, sessionSource } from '@cctrail/core/node';

/** The repository's fixture scenarios (`fixtures/<scenario>/<project>/…`). */
const FIXTURES = resolve(import.meta.dirname, '../../../../fixtures');

/** The names of the fixture scenarios, sorted. */
export const SCENARIOS: string[] = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** A project of fixture sessions, built with the real core engine. */
export interface FixtureProject {
  id: string;
  cwd: string | null;
  sessions: Session[];
}

/** Fixture scenarios of core's own tests (`packages/core/test/fixtures/<scenario>/`). */
export const CORE_FIXTURES = resolve(import.meta.dirname, '../../../../packages/core/test/fixtures');

/**
 * Builds the sessions of one fixture scenario with the real core engine, grouped by project slug.
 *
 * @param from The folder of scenarios (the repository's `fixtures/` by default).
 */
export async function scenarioProjects(scenario: string, from = FIXTURES): Promise<FixtureProject[]> {
  const root = join(from, scenario);
  const found = await discover([root]);
  const out: FixtureProject[] = [];
  for (const project of found.projects) {
    const sessions: Session[] = [];
    for (const s of project.sessions)
      sessions.push(await buildSession(await sessionSource(s, (p) => relative(root, p))));
    out.push({
      id: `${scenario}--${project.slug}`,
      cwd: sessions.find((s) => s.project.cwd)?.project.cwd ?? project.slug,
      sessions,
    });
  }
  return out;
}

/** Builds every fixture session with the real core engine, grouped by project slug. */
export async function fixtureProjects(): Promise<FixtureProject[]> {
  const out: FixtureProject[] = [];
  for (const scenario of readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory()))
    out.push(...(await scenarioProjects(scenario.name)));
  return out;
}
