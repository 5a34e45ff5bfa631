import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArchiveStats } from '@cctrail/core/archive';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, schemaErrors } from './helpers.js';

/**
 * `cctrail stats` on core's `spawn-reported` fixture: the sub-agent whose transcript is missing counts once, at what
 * its spawn's result reports, in the tokens and cost of its session, its agent type and the totals (a copy of the
 * session adds nothing), with the reported part apart; the figures are the report's. The run whose transcript is
 * there is counted from its transcript only, and so is the other one once its transcript is there too.
 */

const FIXTURE = fileURLToPath(new URL('../../core/test/fixtures/spawn-reported', import.meta.url));
const SESSION = '5f0e2c1a-7b3d-4e8f-9a6b-2c4d6e8f0a1b';
const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const made: string[] = [];

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
}, 0);

/** A copy of the fixture in a new folder, with a copy of the session file (a duplicate, whose runs are its original's). */
async function fixtureCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cctrail-spawn-reported-'));
  made.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  const project = join(dir, '-home-dev-spawn-reported');
  await cp(join(project, `${SESSION}.jsonl`), join(project, 'copy-of-the-session.jsonl'));
  return dir;
}

async function statsOf(dir: string): Promise<ArchiveStats> {
  const run = await cctrail(['stats', '--json', '--no-cache', dir]);
  expect(run.code, run.stderr).toBe(0);
  const stats = JSON.parse(run.stdout) as ArchiveStats;
  expect(schemaErrors('stats', stats)).toEqual([]);
  return stats;
}

/** Tokens of the API responses, by kind, summed. */
const apiTokens = (u: ArchiveStats['totals']['usage']) =>
  u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

/** Text of an HTML page without tags, spaces collapsed. */
const text = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('cctrail stats with a sub-agent reported by its spawn', () => {
  it('counts it once in every total of --json, the reported part apart; the other run from its transcript', async () => {
    const stats = await statsOf(await fixtureCopy());
    expect(stats.totals.duplicates).toBe(1);
    const reported = stats.totals.reportedBySpawn!;
    expect(reported).toMatchObject({ runs: 1, tokens: 20_400, durationMs: 95_000, toolUses: 7 });
    expect(reported.cost.usd).toBeGreaterThan(0);
    const original = stats.sessions.find((s) => s.sessionId === SESSION)!;
    const gone = original.sidechains.find((s) => s.agentType === 'general-purpose')!;
    const here = original.sidechains.find((s) => s.agentType === 'Explore')!;
    // the missing run: its spawn's figures, marked; its usage (measured) stays empty
    expect(gone).toMatchObject({
      entries: 0,
      tokens: 20_400,
      reported: { totalTokens: 20_400, toolUses: 7 },
    });
    expect(gone.cost).toEqual(reported.cost);
    expect(apiTokens(gone.usage)).toBe(0);
    // the run whose transcript is there: its transcript's 8,198 tokens, not the 5,150 its result reports
    expect(here.reported).toBeUndefined();
    expect(here.tokens).toBe(8198);
    // once in the session, once in the totals (the duplicate copy adds nothing)
    const measured = apiTokens(original.usage);
    expect(original.tokens).toBe(measured + 20_400);
    expect(original.reportedBySpawn).toEqual(reported);
    expect(stats.totals.tokens).toBe(apiTokens(stats.totals.usage) + 20_400);
    expect(apiTokens(stats.totals.usage)).toBe(measured);
    const apiUsd = Object.values(stats.cost.byModel).reduce((sum, c) => sum + c.usd, 0);
    expect(stats.totals.cost.usd).toBeCloseTo(apiUsd + reported.cost.usd, 9);
    expect(stats.cost.total).toEqual(stats.totals.cost);
    expect(stats.cost.reportedBySpawn).toEqual(reported.cost);
    expect(original.cost).toEqual(stats.totals.cost);
    // its agent type: one run without a transcript, its figures counted once
    expect(stats.agents.find((a) => a.agentType === 'general-purpose')).toMatchObject({
      invocations: 1,
      withoutTranscript: 1,
      tokens: 20_400,
      cost: reported.cost,
      reportedBySpawn: reported,
    });
  });

  it('counts nothing twice once the transcript is there', async () => {
    const dir = await fixtureCopy();
    // The missing run's transcript, written: a prompt and one response of 2,105 tokens.
    const line = (record: object) =>
      JSON.stringify({
        isSidechain: true,
        sessionId: SESSION,
        version: '2.1.120',
        cwd: '/home/dev/spawn-reported',
        agentId: 'a1b2c3d4e5f6a7b82',
        ...record,
      });
    await writeFile(
      join(dir, '-home-dev-spawn-reported', SESSION, 'subagents', 'agent-a1b2c3d4e5f6a7b82.jsonl'),
      `${[
        line({
          type: 'user',
          parentUuid: null,
          uuid: 'b0000000-0000-4000-8000-000000000001',
          timestamp: '2026-04-02T10:00:03.000Z',
          message: { role: 'user', content: 'Write docs/parser.md describing parser.py.' },
        }),
        line({
          type: 'assistant',
          parentUuid: 'b0000000-0000-4000-8000-000000000001',
          uuid: 'b0000000-0000-4000-8000-000000000002',
          timestamp: '2026-04-02T10:01:30.000Z',
          requestId: 'req_written',
          message: {
            model: 'claude-sonnet-4-5',
            id: 'msg_written',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: 'Docs written to docs/parser.md (3 sections).' }],
            usage: {
              input_tokens: 5,
              output_tokens: 100,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 2000,
            },
          },
        }),
      ].join('\n')}\n`,
    );
    const stats = await statsOf(dir);
    const original = stats.sessions.find((s) => s.sessionId === SESSION)!;
    const run = original.sidechains.find((s) => s.agentType === 'general-purpose')!;
    expect(run).toMatchObject({ entries: 2, tokens: 2105 });
    expect(run.reported).toBeUndefined();
    expect(stats.totals.reportedBySpawn).toBeUndefined();
    expect(stats.cost.reportedBySpawn).toBeUndefined();
    expect(original.reportedBySpawn).toBeUndefined();
    expect(original.tokens).toBe(apiTokens(original.usage));
    expect(stats.totals.tokens).toBe(apiTokens(stats.totals.usage));
    // 12,808 tokens of the main thread and the first run, and the 2,105 of this one: not the 20,400 reported
    expect(stats.totals.tokens).toBe(12_808 + 2105);
    const apiUsd = Object.values(stats.cost.byModel).reduce((sum, c) => sum + c.usd, 0);
    expect(stats.totals.cost.usd).toBeCloseTo(apiUsd, 9);
  });

  it('says so in the table', async () => {
    const run = await cctrail(['stats', '--no-cache', '--by', 'model', FIXTURE]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/tokens: .*\(4 API responses\); ≥ 33\.2k with the runs without a transcript/);
    expect(run.stdout).toMatch(/ {2}cost: ≥ \$0\.\d+\n/);
    expect(run.stdout).toMatch(
      /of which 1 sub-agent run without a transcript, as reported by the spawn result .*: ≥ \$0\.\d+, ≥ 20\.4k tokens, 7 tool uses/,
    );
    expect(run.stdout).toMatch(/5f0e2c1a .* ≥ 33\.2k +≥ \$0\.\d+/);
    expect(run.stdout).toMatch(/general-purpose .* ≥ 20\.4k +≥ \$0\.\d+/);
    expect(run.stdout).toMatch(/\(sub-agents without a transcript, ≥ as reported\) +\$0\.\d+ +\d+%/);
  });

  it.skipIf(!REPORT_BUILT)(
    "gives the report's figures: the session page's and the index's",
    async () => {
      const dir = await fixtureCopy();
      const stats = await statsOf(dir);
      const out = await mkdtemp(join(tmpdir(), 'cctrail-spawn-reported-site-'));
      made.push(out);
      const report = await cctrail(['report', dir, '-o', out]);
      expect(report.code, report.stderr).toBe(0);
      const original = stats.sessions.find((s) => s.sessionId === SESSION)!;
      const project = readdirSync(join(out, 's'))[0]!;
      const page = text(join(out, 's', project, SESSION, 'index.html'));
      expect(page).toContain(`Cost ≥ $${original.cost.usd.toFixed(2)} `);
      expect(page).toContain(`Tokens ≥ ${Math.round(original.tokens / 1000)}k `);
      const index = readFileSync(join(out, 'index.html'), 'utf8');
      expect(text(join(out, 'index.html'))).toContain(`Cost ≥ $${stats.totals.cost.usd.toFixed(2)} `);
      // the index's tokens: the session page's and stats' total, the reported run counted once, marked "≥"
      expect(stats.totals.tokens).toBe(original.tokens);
      expect(text(join(out, 'index.html'))).toContain(`Tokens ≥ ${Math.round(stats.totals.tokens / 1000)}k `);
      expect(index).toContain(
        `title="${stats.totals.tokens.toLocaleString('en-US')} tokens (input, output and cache)`,
      );
      // its project and its row say the same
      expect(index).toContain(`2 sessions · ≥ ${Math.round(stats.totals.tokens / 1000)}k tokens`);
      expect(index).toContain(
        `≥ $${stats.totals.reportedBySpawn!.cost.usd.toFixed(2)} reported by the spawn result for 1 sub-agent`,
      );
    },
    240_000,
  );
});
