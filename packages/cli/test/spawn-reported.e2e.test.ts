import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArchiveStats } from '@cctrail/core/archive';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, schemaErrors } from './helpers.js';

/**
 * `cctrail stats` on core's `spawn-reported` fixture: the sub-agent whose transcript is missing is reported from
 * its spawn's result, once (a copy of the session adds nothing), apart from the figures of the transcripts; the
 * one whose transcript is there is counted from its transcript only.
 */

const FIXTURE = fileURLToPath(new URL('../../core/test/fixtures/spawn-reported', import.meta.url));
const SESSION = '5f0e2c1a-7b3d-4e8f-9a6b-2c4d6e8f0a1b';
const made: string[] = [];

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
}, 0);

describe('cctrail stats with a sub-agent reported by its spawn', () => {
  it('reports it once in --json, the other run from its transcript', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cctrail-spawn-reported-'));
    made.push(dir);
    await cp(FIXTURE, dir, { recursive: true });
    // A copy of the session file: a duplicate, whose runs are its original's.
    const project = join(dir, '-home-dev-spawn-reported');
    await cp(join(project, `${SESSION}.jsonl`), join(project, 'copy-of-the-session.jsonl'));
    const run = await cctrail(['stats', '--json', '--no-cache', dir]);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as ArchiveStats;
    expect(schemaErrors('stats', stats)).toEqual([]);
    expect(stats.totals.duplicates).toBe(1);
    expect(stats.totals.reportedBySpawn).toMatchObject({
      runs: 1,
      tokens: 20_400,
      durationMs: 95_000,
      toolUses: 7,
    });
    expect(stats.totals.reportedBySpawn?.cost.usd).toBeGreaterThan(0);
    const original = stats.sessions.find((s) => s.sessionId === SESSION)!;
    const gone = original.sidechains.find((s) => s.agentType === 'general-purpose')!;
    const here = original.sidechains.find((s) => s.agentType === 'Explore')!;
    expect(gone).toMatchObject({ entries: 0, tokens: 0, reported: { totalTokens: 20_400, toolUses: 7 } });
    expect(here.reported).toBeUndefined();
    expect(here.tokens).toBe(8198);
    expect(stats.agents.find((a) => a.agentType === 'general-purpose')).toMatchObject({
      invocations: 1,
      withoutTranscript: 1,
    });
  });

  it('says so in the table', async () => {
    const run = await cctrail(['stats', '--no-cache', FIXTURE]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /1 sub-agent run without a transcript, as their spawns report them \(not in the figures above\): 20\.4k tokens in their last responses, 7 tool uses, at least \$0\.\d+/,
    );
    expect(run.stdout).toMatch(/general-purpose .* ≥ 20\.4k +≥ \$0\.\d+/);
  });
});
