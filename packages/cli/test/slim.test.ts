import {
  archiveStats,
  buildSession,
  discover,
  markDuplicates,
  type Session,
  sessionSource,
} from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { displayPath } from '../src/display.js';
import { slim } from '../src/jobs.js';
import { CORPUS, FIXTURES, fixtureScenarios, HAS_CORPUS } from './helpers.js';

async function build(root: string): Promise<Session[]> {
  const discovery = await discover([root]);
  const sessions: Session[] = [];
  for (const project of discovery.projects) {
    for (const session of project.sessions) {
      const source = await sessionSource(session, (path) => displayPath(root, path));
      sessions.push(await buildSession(source, { content: false }));
    }
  }
  return sessions;
}

describe('slim', () => {
  it.each([
    ['fixtures', FIXTURES, fixtureScenarios().length > 0],
    ['corpus', CORPUS, HAS_CORPUS],
  ] as const)('keeps statistics, duplicates and usage of %s unchanged', async (_name, root, present) => {
    if (!present) return;
    const full = await build(root);
    const slimmed = (await build(root)).map(slim);
    markDuplicates(full);
    markDuplicates(slimmed);
    expect(archiveStats(slimmed)).toEqual(archiveStats(full));
    expect(JSON.stringify(slimmed).length).toBeLessThan(JSON.stringify(full).length);
  });
});
