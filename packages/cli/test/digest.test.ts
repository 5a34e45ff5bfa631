import { buildSession, type Session } from '@cctrail/core';
import { archiveStats, combineStats, findDuplicates, statsDigest } from '@cctrail/core/archive';
import { discover, sessionSource } from '@cctrail/core/node';
import { describe, expect, it } from 'vitest';
import { displayPath } from '../src/terminal/display.js';
import { CORPUS, FIXTURES, fixtureScenarios, HAS_CORPUS } from './helpers.js';

async function build(root: string, content: boolean): Promise<Session[]> {
  const discovery = await discover([root]);
  const sessions: Session[] = [];
  for (const project of discovery.projects) {
    for (const session of project.sessions) {
      const source = await sessionSource(session, (path) => displayPath(root, path), { blocking: !content });
      sessions.push(await buildSession(source, { content }));
    }
  }
  return sessions;
}

describe('statistics digests', () => {
  it.each([
    ['fixtures', FIXTURES, fixtureScenarios().length > 0],
    ['corpus', CORPUS, HAS_CORPUS],
  ] as const)(
    'of %s: the same from structure-only builds as from full ones, and archive statistics with them',
    async (_name, root, present) => {
      if (!present) return;
      const full = await build(root, true);
      const lean = await build(root, false);
      // What `cctrail stats` does: digests of structure-only builds, duplicates found on the digests.
      const digests = lean.map(statsDigest);
      const duplicates = findDuplicates(lean.map((s, i) => ({ id: s.id, uuids: digests[i]!.uuids })));
      digests.forEach((digest, i) => {
        digest.stats.duplicateOf = duplicates[i]!;
      });
      const fullDigests = full.map(statsDigest);
      fullDigests.forEach((digest, i) => {
        digest.stats.duplicateOf = duplicates[i]!;
      });
      expect(digests).toEqual(fullDigests);
      expect(combineStats(digests)).toEqual(archiveStats(full));
      expect(JSON.stringify(digests).length).toBeLessThan(JSON.stringify(lean).length / 4);
    },
  );
});
