import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArchiveStats } from '@cctrail/core/archive';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, schemaErrors } from './helpers.js';

/**
 * Continued sessions repeat their spawns (core's `spawn-continued` fixture: two files go on from a copy of a first
 * one; the `Explore` run's transcript is in the first file's folder, the `general-purpose` run's nowhere). Each run
 * counts once in `stats --json`'s totals and agent types, and in the report's index and agents overview: the
 * missing run at its spawn's report, the other from its transcript only, never at its report as well.
 */

const FIXTURE = fileURLToPath(new URL('../../core/test/fixtures/spawn-continued', import.meta.url));
const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const made: string[] = [];

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
}, 0);

const apiTokens = (u: ArchiveStats['totals']['usage']) =>
  u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

/** Text of an HTML page without tags, spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

async function statsOf(): Promise<ArchiveStats> {
  const run = await cctrail(['stats', '--json', '--no-cache', FIXTURE]);
  expect(run.code, run.stderr).toBe(0);
  const stats = JSON.parse(run.stdout) as ArchiveStats;
  expect(schemaErrors('stats', stats)).toEqual([]);
  return stats;
}

describe('sub-agent runs repeated by continued sessions', () => {
  it('counts each once in stats --json', async () => {
    const stats = await statsOf();
    expect(stats.sessions).toHaveLength(3);
    // each file lists the runs as its own page does: the continued ones at their spawns' report
    const reportedPerFile = stats.sessions.map((s) => s.reportedBySpawn?.runs ?? 0).sort();
    expect(reportedPerFile).toEqual([1, 2, 2]);
    expect(stats.totals.reportedBySpawn).toMatchObject({ runs: 1, tokens: 20_400, toolUses: 7 });
    expect(stats.totals.tokens).toBe(apiTokens(stats.totals.usage) + 20_400);
    expect(stats.totals.sidechains).toBe(2);
    expect(stats.agents.map((a) => [a.agentType, a.invocations, a.tokens])).toEqual([
      ['Explore', 1, 8198],
      ['general-purpose', 1, 20_400],
    ]);
    // The three files are one conversation, whose totals count the runs as the archive's do.
    expect(stats.conversations).toHaveLength(1);
    expect(stats.conversations?.[0]?.totals.reportedBySpawn).toEqual(stats.totals.reportedBySpawn);
    const table = await cctrail(['stats', '--no-cache', FIXTURE]);
    expect(table.stdout).toMatch(/Conversations over several files[\s\S]*≥ [\d.,]+k? +≥ \$/);
  });

  it.skipIf(!REPORT_BUILT)(
    "gives stats' totals on the report's index and agents overview",
    async () => {
      const stats = await statsOf();
      const out = await mkdtemp(join(tmpdir(), 'cctrail-spawn-continued-site-'));
      made.push(out);
      const report = await cctrail(['report', FIXTURE, '-o', out]);
      expect(report.code, report.stderr).toBe(0);
      const index = readFileSync(join(out, 'index.html'), 'utf8');
      expect(index).toContain(
        `title="${stats.totals.tokens.toLocaleString('en-US')} tokens (input, output and cache)`,
      );
      expect(text(index)).toContain(`Tokens ≥ ${Math.round(stats.totals.tokens / 1000)}k `);
      expect(text(index)).toContain(`Cost ≥ $${stats.totals.cost.usd.toFixed(2)} `);
      expect(index).toContain(
        `≥ $${stats.totals.reportedBySpawn!.cost.usd.toFixed(2)} reported by the spawn result for 1 sub-agent`,
      );
      expect(text(index)).toContain(`3 sessions · ≥ ${Math.round(stats.totals.tokens / 1000)}k tokens`);
      // The conversation's row and page give its tokens with its reported run, once.
      const conversation = stats.conversations?.[0];
      const tokens = apiTokens(conversation!.totals.usage) + 20_400;
      expect(index).toContain(`title="≥ ${tokens.toLocaleString('en-US')} tokens"`);
      const page = text(
        readFileSync(join(out, 'c', conversation!.id.replace(/[^A-Za-z0-9_-]/g, '_'), 'index.html'), 'utf8'),
      );
      expect(page).toContain(`≥ ${Math.round(tokens / 1000)}k tokens`);
      const overview = text(readFileSync(join(out, 'agents', 'index.html'), 'utf8'));
      expect(overview).toMatch(/general-purpose 1 1 without transcript 1 0 /);
      expect(overview).toMatch(/Explore 1 1 4 /);
      const type = text(readFileSync(join(out, 'agents', 'general-purpose', 'index.html'), 'utf8'));
      expect(type).toContain('1 run in 1 session');
    },
    240_000,
  );
});
