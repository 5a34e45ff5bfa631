import type { ArchiveStats } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import {
  CORPUS,
  cctrail,
  countLines,
  FIXTURES,
  fixtureScenarios,
  HAS_CORPUS,
  schemaErrors,
  transcriptFiles,
} from './helpers.js';

const hasFixtures = fixtureScenarios().length > 0;

describe.skipIf(!hasFixtures)('cctrail stats on fixtures/', () => {
  it('prints the golden JSON', async () => {
    const run = await cctrail(['stats', '--json', FIXTURES]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as ArchiveStats;
    expect(schemaErrors('stats', stats)).toEqual([]);
    await expect(run.stdout).toMatchFileSnapshot('__golden__/fixtures.stats.json');
  });

  it('gives the same JSON however the work is spread over threads', async () => {
    // By default the main thread takes jobs beside the workers; CCTRAIL_WORKERS=0 builds everything there,
    // and an explicit worker count leaves the main thread out.
    const runs = await Promise.all(
      [undefined, '0', '3'].map((workers) =>
        cctrail(['stats', '--json', FIXTURES], {
          env: workers === undefined ? {} : { CCTRAIL_WORKERS: workers },
        }),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
  });

  it('accounts for every input line and counts usage once across files', async () => {
    const stats = JSON.parse((await cctrail(['stats', '--json', FIXTURES])).stdout) as ArchiveStats;
    const lines = fixtureScenarios()
      .flatMap(transcriptFiles)
      .reduce((sum, file) => sum + countLines(file), 0);
    expect(stats.totals.lines).toBe(lines);
    expect(stats.sessions.reduce((sum, s) => sum + s.lines, 0)).toBe(lines);
    // Deduplicated usage never exceeds the plain sum over sessions.
    const summed = stats.sessions.reduce((sum, s) => sum + s.usage.outputTokens, 0);
    expect(stats.totals.usage.outputTokens).toBeLessThanOrEqual(summed);
  });

  it('prints tables without color codes when stdout is not a terminal', async () => {
    const run = await cctrail(['stats', FIXTURES], { env: { NO_COLOR: '' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Sessions');
    expect(run.stdout).toContain('Agents');
    expect(run.stdout).toContain('Compactions');
    expect(run.stdout).not.toContain('\u001b[');
    // No progress bar either: stderr is not a terminal.
    expect(run.stderr).not.toContain('█');
  });

  it('filters by project and session', async () => {
    const all = JSON.parse((await cctrail(['stats', '--json', FIXTURES])).stdout) as ArchiveStats;
    const first = all.sessions[0]!;
    const byProject = JSON.parse(
      (await cctrail(['stats', '--json', FIXTURES, `--project=${first.project!.toUpperCase()}`])).stdout,
    ) as ArchiveStats;
    expect(byProject.sessions.every((s) => s.project === first.project)).toBe(true);
    expect(byProject.sessions.length).toBeGreaterThan(0);
    const bySession = JSON.parse(
      (await cctrail(['stats', '--json', FIXTURES, '-s', first.sessionId.slice(0, 8)])).stdout,
    ) as ArchiveStats;
    expect(bySession.sessions.map((s) => s.sessionId)).toEqual([first.sessionId]);
  });

  it('filters by time', async () => {
    const all = JSON.parse((await cctrail(['stats', '--json', FIXTURES])).stdout) as ArchiveStats;
    const dated = all.sessions.filter((s) => s.startedAt !== null && s.endedAt !== null);
    const latest = dated
      .map((s) => s.endedAt!)
      .sort()
      .at(-1)!;
    const run = await cctrail(['stats', '--json', FIXTURES, '--since', latest]);
    const since = JSON.parse(run.stdout) as ArchiveStats;
    expect(since.sessions.length).toBeGreaterThan(0);
    expect(since.sessions.every((s) => s.endedAt! >= latest)).toBe(true);
    const none = await cctrail(['stats', '--json', FIXTURES, '--until', '2000-01-01']);
    expect(none.code).toBe(0);
    expect((JSON.parse(none.stdout) as ArchiveStats).sessions).toEqual([]);
    expect(none.stderr).toContain('No session matches the filters.');
  });
});

describe.skipIf(!HAS_CORPUS)('cctrail stats on ../shared/corpus', () => {
  it('gives valid JSON whose lines match the input', async () => {
    const run = await cctrail(['stats', '--json', CORPUS]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as ArchiveStats;
    expect(schemaErrors('stats', stats)).toEqual([]);
    const lines = transcriptFiles(CORPUS).reduce((sum, file) => sum + countLines(file), 0);
    expect(stats.totals.lines).toBe(lines);
    expect(stats.sessions.every((s) => !s.file.startsWith('/') && !s.file.startsWith('..'))).toBe(true);
    expect(stats.agents.length).toBeGreaterThan(0);
  });
});
