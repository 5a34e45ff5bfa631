import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchiveStats } from '@cctrail/core/archive';
import { afterAll, describe, expect, it } from 'vitest';
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
        cctrail(['stats', '--json', '--no-cache', FIXTURES], {
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

describe.skipIf(!hasFixtures)('the stats cache', () => {
  const work = mkdtemp(join(tmpdir(), 'cctrail-stats-cache-'));
  afterAll(async () => rm(await work, { recursive: true, force: true }), 0);

  /** A copy of the fixtures and an empty cache folder. */
  async function setUp(name: string) {
    const root = join(await work, name, 'projects');
    await cp(FIXTURES, root, { recursive: true });
    return { root, env: { CCTRAIL_CACHE_DIR: join(await work, name, 'cache') } };
  }

  /** The time transcripts are given, in whole seconds, so that it can be given back exactly. */
  const WHEN = new Date('2025-06-01T00:00:00Z');

  /** A transcript with token counts, edited in place without changing its size or time. */
  async function editUnnoticed(root: string): Promise<string> {
    for (const file of transcriptFiles(root)) {
      const text = await readFile(file, 'utf8');
      const at = text.search(/"output_tokens":[1-8]/);
      if (at === -1) continue;
      const digit = at + '"output_tokens":'.length;
      await writeFile(file, `${text.slice(0, digit)}${Number(text[digit]) + 1}${text.slice(digit + 1)}`);
      await utimes(file, WHEN, WHEN);
      return file;
    }
    throw new Error('no transcript with output tokens');
  }

  it('reads again only the sessions whose files changed, and prints what a run without it prints', async () => {
    const { root, env } = await setUp('reuse');
    for (const file of transcriptFiles(root)) await utimes(file, WHEN, WHEN);
    const first = await cctrail(['stats', '--json', root], { env });
    expect(first.code).toBe(0);
    const kept = (await readdir(join(env.CCTRAIL_CACHE_DIR, 'stats'))).sort();
    expect(kept).toHaveLength(2);
    expect(kept[1]).toBe(kept[0]!.replace(/\.json$/, '.result.json'));

    // A change that size and time do not show: the cached digests are used, so the output does not move…
    const edited = await editUnnoticed(root);
    expect((await cctrail(['stats', '--json', root], { env })).stdout).toBe(first.stdout);
    const fresh = await cctrail(['stats', '--json', '--no-cache', root], { env });
    expect(fresh.stdout).not.toBe(first.stdout);

    // …until the file's time says it changed: then that session is read again.
    await utimes(edited, new Date(), new Date());
    expect((await cctrail(['stats', '--json', root], { env })).stdout).toBe(fresh.stdout);
  });

  it('prints the last result for unchanged files without reading a skeleton, and nothing else', async () => {
    const { root, env } = await setUp('result');
    for (const file of transcriptFiles(root)) await utimes(file, WHEN, WHEN);
    const outputs = async (args: string[]) => {
      const run = await cctrail(['stats', ...args, root], { env });
      return [run.code, run.stdout, run.stderr];
    };
    // Each option gives what a run without the cache gives, from the result its own last run kept…
    for (const args of [['--json'], [], ['--verbose'], ['--project', 'linear']]) {
      const fresh = await outputs([...args, '--no-cache']);
      expect(await outputs(args)).toEqual(fresh);
      expect(await outputs(args)).toEqual(fresh);
    }

    // …and the skeletons are not read at all: an unnoticed edit with the skeletons gone still gives that result.
    const json = await outputs(['--json']);
    await editUnnoticed(root);
    const dir = join(env.CCTRAIL_CACHE_DIR, 'stats');
    for (const name of await readdir(dir)) if (!name.endsWith('.result.json')) await rm(join(dir, name));
    expect(await outputs(['--json'])).toEqual(json);
  });

  it('is neither read nor written with --no-cache', async () => {
    const { root, env } = await setUp('off');
    const run = await cctrail(['stats', '--json', '--no-cache', root], { env });
    expect(run.code).toBe(0);
    expect(existsSync(env.CCTRAIL_CACHE_DIR)).toBe(false);
  });

  it('only costs time when it cannot be written', async () => {
    const { root, env } = await setUp('unwritable');
    // A file where the cache folder should be: nothing can be created in it.
    await writeFile(env.CCTRAIL_CACHE_DIR, 'not a folder');
    const run = await cctrail(['stats', '--json', root], { env });
    const without = await cctrail(['stats', '--json', '--no-cache', root], { env });
    expect(run.code).toBe(0);
    expect([run.stdout, run.stderr]).toEqual([without.stdout, without.stderr]);
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
