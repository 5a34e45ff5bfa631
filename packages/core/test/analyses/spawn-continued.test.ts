import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { archiveStats, findConversations, statsDigest } from '../../src/archive/index.js';
import { runsOnce } from '../../src/archive/runs-once.js';
import { totalTokens } from '../../src/graph/usage.js';
import { buildSession, type Session } from '../../src/index.js';
import { discover, sessionSource } from '../../src/node/index.js';

/**
 * A sub-agent run that several files list counts once in the archive (`fixtures/spawn-continued`: two files go on
 * from a copy of a first one, spawns and results included; the `Explore` run's transcript is in the first file's
 * folder only, the `general-purpose` run's nowhere).
 */

const root = fileURLToPath(new URL('../fixtures/spawn-continued/', import.meta.url));
const FIRST = '5f0e2c1a-7b3d-4e8f-9a6b-2c4d6e8f0a1b';

async function load(): Promise<Session[]> {
  const found = await discover([root]);
  const sessions = found.projects[0]!.sessions;
  return Promise.all(sessions.map(async (s) => buildSession(await sessionSource(s), { content: false })));
}

describe('sub-agent runs of continued sessions', () => {
  it('counts each run once in the totals, from its transcript where a file holds it', async () => {
    const sessions = await load();
    expect(sessions).toHaveLength(3);
    const stats = archiveStats(sessions);
    expect(stats.totals.duplicates).toBe(0);
    // every file lists both runs; the continued files have neither transcript, so both are reported there
    for (const s of stats.sessions) expect(s.sidechains).toHaveLength(2);
    const continued = stats.sessions.filter((s) => s.sessionId !== FIRST);
    for (const s of continued) expect(s.reportedBySpawn).toMatchObject({ runs: 2, tokens: 20_400 + 5150 });
    // the archive: general-purpose once at its report, Explore once from its transcript (in the API usage)
    const api = totalTokens(stats.totals.usage);
    expect(stats.totals.reportedBySpawn).toMatchObject({ runs: 1, tokens: 20_400, toolUses: 7 });
    expect(stats.totals.tokens).toBe(api + 20_400);
    expect(stats.totals.sidechains).toBe(2);
    expect(stats.cost.reportedBySpawn).toEqual(stats.totals.reportedBySpawn!.cost);
    const apiUsd = Object.values(stats.cost.byModel).reduce((sum, c) => sum + c.usd, 0);
    expect(stats.totals.cost.usd).toBeCloseTo(apiUsd + stats.totals.reportedBySpawn!.cost.usd, 9);
    expect(stats.agents.map((a) => [a.agentType, a.invocations, a.tokens, a.withoutTranscript ?? 0])).toEqual(
      [
        ['Explore', 1, 8198, 0],
        ['general-purpose', 1, 20_400, 1],
      ],
    );
  });

  it("counts each run once in the conversation's totals too, as the archive's", async () => {
    const sessions = await load();
    const digests = sessions.map(statsDigest);
    const [conversation, ...others] = findConversations(
      digests.map((digest, i) => ({
        id: sessions[i]!.id,
        project: digest.stats.project,
        title: null,
        digest,
      })),
      { alone: false },
    );
    expect(others).toEqual([]);
    expect(conversation?.sessions).toHaveLength(3);
    expect(conversation?.totals.reportedBySpawn).toEqual(archiveStats(sessions).totals.reportedBySpawn);
    expect(conversation?.totals.reportedBySpawn).toMatchObject({ runs: 1, tokens: 20_400 });
  });

  it('counts the runs of a duplicate copy nowhere, but finds a transcript in it', () => {
    const run = (id: string, entries: number) => ({ id, entries });
    const counted = runsOnce([
      { scope: 'p', runs: [run('agent-a', 0), run('agent-b', 0)], counted: true },
      { scope: 'p', runs: [run('agent-a', 4)], counted: false },
      { scope: 'p', runs: [run('agent-b', 0), run('agent-c', 2)], counted: true },
      { scope: 'q', runs: [run('agent-b', 0)], counted: true },
    ]);
    expect(counted).toEqual([
      [run('agent-a', 4), run('agent-b', 0)],
      [],
      [run('agent-c', 2)],
      [run('agent-b', 0)],
    ]);
  });
});
