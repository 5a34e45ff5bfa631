import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiCost, archiveStats, responseCost, sessionCost, sessionStats } from '../../src/archive/index.js';
import { totalTokens } from '../../src/graph/usage.js';
import { buildSession, type Session } from '../../src/index.js';
import { discover, sessionSource } from '../../src/node/index.js';

/**
 * Runs without their transcript take their figures from the spawn's result (`fixtures/spawn-reported`): the run
 * whose transcript is missing is reported once; the run whose transcript is there, although its result reports
 * the same fields, is counted from its transcript only.
 */

const root = fileURLToPath(new URL('../fixtures/spawn-reported/', import.meta.url));

async function load(content = true): Promise<Session> {
  const found = await discover([root]);
  const s = found.projects[0]!.sessions[0]!;
  return buildSession(await sessionSource(s), { content });
}

describe('sub-agents reported by their spawn', () => {
  it('keeps what the spawn reports of a run without its transcript, and nothing of one with it', async () => {
    for (const content of [true, false]) {
      const s = await load(content);
      const here = s.sidechains.find((c) => c.agentType === 'Explore')!;
      const gone = s.sidechains.find((c) => c.agentType === 'general-purpose')!;
      expect(here.entries).toBe(4);
      expect(here.reported).toBeUndefined();
      expect(gone.status).toBe('missing');
      expect(gone.reported).toMatchObject({
        totalTokens: 20_400,
        durationMs: 95_000,
        toolUses: 7,
        model: 'claude-sonnet-4-5',
        usage: {
          inputTokens: 4,
          outputTokens: 496,
          cacheReadInputTokens: 19_500,
          cacheCreationInputTokens: 400,
        },
      });
    }
  });

  it('counts the reported run once in the session and archive statistics, duplicates left out', async () => {
    const s = await load();
    const stats = sessionStats(s);
    const gone = s.sidechains.find((c) => c.agentType === 'general-purpose')!;
    const usd = responseCost('claude-sonnet-4-5', gone.reported!.usage!, gone.startedAt)!;
    expect(usd).toBeGreaterThan(0);
    expect(stats.reportedBySpawn).toEqual({
      runs: 1,
      tokens: 20_400,
      durationMs: 95_000,
      toolUses: 7,
      cost: { usd: expect.closeTo(usd, 6), unpriced: 0 },
    });
    const row = stats.sidechains.find((c) => c.id === gone.id)!;
    // its figures are its report's, marked; its usage (API responses of a transcript) stays empty
    expect(row.tokens).toBe(20_400);
    expect(row.cost).toEqual(stats.reportedBySpawn?.cost);
    expect(row.usage.responses).toBe(0);
    expect(row.reported?.totalTokens).toBe(20_400);
    // in the session's tokens and cost, once
    expect(stats.tokens).toBe(totalTokens(s.usage.total) + 20_400);
    expect(stats.cost.usd).toBeCloseTo(sessionCost(s).total.usd + usd, 9);
    expect(stats.sidechains.find((c) => c.agentType === 'Explore')?.reported).toBeUndefined();

    const copy = await load();
    copy.id = 'copy-of-the-session';
    const archive = archiveStats([s, copy]);
    expect(archive.totals.duplicates).toBe(1);
    expect(archive.totals.reportedBySpawn?.runs).toBe(1);
    expect(archive.totals.reportedBySpawn?.tokens).toBe(20_400);
    const byType = new Map(archive.agents.map((a) => [a.agentType, a]));
    expect(byType.get('general-purpose')).toMatchObject({
      invocations: 1,
      medianEntries: 0,
      withoutTranscript: 1,
    });
    expect(byType.get('Explore')).toMatchObject({ invocations: 1, medianEntries: 4 });
    expect(byType.get('Explore')?.withoutTranscript).toBeUndefined();
    expect(byType.get('general-purpose')?.reportedBySpawn).toMatchObject({
      runs: 1,
      tokens: 20_400,
      toolUses: 7,
    });
    expect(byType.get('general-purpose')).toMatchObject({ tokens: 20_400, cost: row.cost });
    // the totals: the original's API responses and its report, the copy adding nothing
    expect(archive.totals.tokens).toBe(stats.tokens);
    expect(archive.totals.cost).toEqual(stats.cost);
    expect(archive.cost.total).toEqual(stats.cost);
    expect(archive.cost.reportedBySpawn).toEqual(stats.reportedBySpawn?.cost);
    expect(apiCost(stats)).toEqual(sessionCost(s).total);
  });
});
