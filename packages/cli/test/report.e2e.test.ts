import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES, fixtureScenarios } from './helpers.js';

// The report builder is another package; this test runs once it is built.
const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../apps/report/dist/index.js', import.meta.url)),
);
const HOSTILE = join(FIXTURES, 'hostile-content');

const work = await mkdtemp(join(tmpdir(), 'cctrail-report-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

async function allText(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(html|json|js)$/.test(entry.name)) {
      parts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
    }
  }
  return parts.join('\n');
}

/**
 * The session files of the one report archive in a cache folder (compressed: `….json.br`), and a reader of their
 * modification times.
 */
async function cachedArchive(cacheDir: string) {
  const reports = await readdir(join(cacheDir, 'reports'));
  expect(reports).toHaveLength(1);
  const archive = join(cacheDir, 'reports', reports[0]!, 'archive');
  const sessions = (await readdir(archive, { recursive: true })).filter(
    (f) => f.endsWith('.json.br') && f.includes('/'),
  );
  const times = () => Promise.all(sessions.map(async (f) => (await stat(join(archive, f))).mtimeMs));
  return { sessions, times };
}

/** The count of secrets redacted a command printed, and its counts by rule. */
function redactedByRule(stderr: string): { total: number; byRule: Record<string, number> } {
  const match = /(\d+) secrets? redacted(?: \(([^)]*)\))?/.exec(stderr);
  const byRule: Record<string, number> = {};
  for (const part of match?.[2]?.split(', ') ?? []) {
    const [count, rule] = part.split(' ');
    byRule[/ other rules$/.test(part) ? '(others)' : rule!] = Number(count);
  }
  return { total: Number(match?.[1]), byRule };
}

describe.skipIf(!REPORT_BUILT || !existsSync(HOSTILE))('cctrail report', () => {
  it('builds a site with secrets redacted and home paths shortened, and prints index.html', async () => {
    const out = join(work, 'site');
    const run = await cctrail(['report', HOSTILE, '-o', out, '--short-home', '--title', 'Test']);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(join(out, 'index.html'));
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(run.stderr).toMatch(/\d+ secrets redacted \([^)]*\), \d+ home paths shortened/);
    const { total, byRule } = redactedByRule(run.stderr);
    expect(total).toBeGreaterThan(0);
    expect(Object.values(byRule).reduce((a, b) => a + b, 0)).toBe(total);
    expect(byRule['private-key']).toBeGreaterThan(0);
    const text = await allText(out);
    for (const leak of [
      'sk-ant-api',
      'AKIAIOSFODNN7EXAMPLE',
      'ghp_',
      'github_pat_',
      'xoxb-',
      'sk_live_',
      'PRIVATE KEY-----\\nMII',
      ':hunter2@',
      'PASSWORD=hunter2',
    ]) {
      expect(text, leak).not.toContain(leak);
    }
    expect(text).not.toContain('/home/dev/');
    expect(text).toContain('[REDACTED:');
  });

  it('rebuilds from the archive kept in the cache folder: unchanged sessions are not exported again', async () => {
    const out = join(work, 'rebuild');
    const env = { CCTRAIL_CACHE_DIR: join(work, 'cache') };
    const first = await cctrail(['report', HOSTILE, '-o', out], { env });
    expect(first.code).toBe(0);
    // Nothing of the cache is inside the folder people publish: its only dot-files are the record of the files
    // the build wrote and GitHub Pages' `.nojekyll`.
    expect((await readdir(out)).filter((f) => f.startsWith('.')).sort()).toEqual([
      '.cctrail-report.json',
      '.nojekyll',
    ]);
    const { sessions, times } = await cachedArchive(join(work, 'cache'));
    expect(sessions.length).toBeGreaterThan(0);
    const before = await times();
    const second = await cctrail(['report', HOSTILE, '-o', out], { env });
    expect(second.code).toBe(0);
    expect(await times()).toEqual(before);
    // The count, by rule, still covers every session, including those kept from the last run.
    expect(redactedByRule(second.stderr)).toEqual(redactedByRule(first.stderr));
    expect(redactedByRule(first.stderr).total).toBeGreaterThan(0);
  });
});

describe.skipIf(!REPORT_BUILT || !existsSync(HOSTILE))('cctrail report with relative paths', () => {
  it('keeps its cache where a relative CCTRAIL_CACHE_DIR names it, though the site builder changes directory', async () => {
    // The site builder runs in a directory of its own while the archive is still being written.
    const cwd = join(work, 'relative');
    await mkdir(cwd, { recursive: true });
    const env = { CCTRAIL_CACHE_DIR: 'cache-here' };
    const first = await cctrail(['report', HOSTILE, '-o', 'site-here'], { cwd, env });
    expect(first.code).toBe(0);
    const { sessions, times } = await cachedArchive(join(cwd, 'cache-here'));
    expect(sessions.length).toBeGreaterThan(0);
    const before = await times();
    const second = await cctrail(['report', HOSTILE, '-o', 'site-here'], { cwd, env });
    expect(second.code).toBe(0);
    expect(await times()).toEqual(before);
    expect(existsSync(join(cwd, 'site-here', 'index.html'))).toBe(true);
  });
});

describe.skipIf(!REPORT_BUILT || fixtureScenarios().length === 0)('cctrail report on every fixture', () => {
  it('builds, from what its export workers prepared, the site the report builds from the archive alone', async () => {
    const out = join(work, 'early');
    // Its pages rendered in threads (from one page on), which the command starts while the export builds its
    // last sessions.
    const env = { CCTRAIL_CACHE_DIR: join(work, 'early-cache'), CCTRAIL_TEST_PAGE_THREADS_FROM: '1' };
    const run = await cctrail(['report', FIXTURES, '-o', out, '--verbose'], { env });
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    // The builder's own steps (--verbose).
    expect(run.stderr).toMatch(/^report: \d+ pages in /m);
    if (availableParallelism() >= 2) {
      expect(run.stderr).toMatch(/^report: page threads started \d+ ms before the archive was complete$/m);
      expect(run.stderr).toMatch(/^report: \d+ pages rendered and written in \d+ ms by [2-4] threads /m);
    }
    // The export workers prepared the sessions they wrote: the builder reads only those they could not (a file
    // corrected after it was written, a route the builder had to tell apart from another).
    const sessions = Number(/^report: \d+ projects, (\d+) sessions read/m.exec(run.stderr)?.[1]);
    const read = Number(/^report: (\d+) session files read/m.exec(run.stderr)?.[1] ?? 0);
    expect(sessions).toBeGreaterThan(10);
    expect(read).toBeLessThan(sessions / 4);
    // The same archive, built by `buildReport` with no cache: the CLI hands the report nothing else.
    const reports = await readdir(join(work, 'early-cache', 'reports'));
    const { buildReport } = await import('@cctrail/report');
    const again = join(work, 'from-files');
    await buildReport({
      dataDir: join(work, 'early-cache', 'reports', reports[0]!, 'archive'),
      outDir: again,
      cacheDir: false,
    });
    const files = async (dir: string) =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length))
        .sort();
    const names = await files(out);
    expect(names).toEqual(await files(again));
    expect(names.filter((name) => name.endsWith('.html')).length).toBeGreaterThan(20);
    for (const name of names) {
      expect(await readFile(join(out, name), 'utf8'), name).toBe(await readFile(join(again, name), 'utf8'));
    }
  }, 180_000);
});

describe.skipIf(!REPORT_BUILT)('cctrail report on files that are not transcripts', () => {
  it('fails with the export’s message alone, and creates no output folder', async () => {
    const input = join(work, 'not-transcripts', 'project');
    await mkdir(input, { recursive: true });
    await writeFile(join(input, 'notes.jsonl'), 'hello\nworld\n');
    const out = join(work, 'not-transcripts-site');
    const run = await cctrail(['report', input, '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a Claude Code transcript');
    expect(run.stderr).not.toMatch(/\[ERROR\]|getStaticPaths/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('cctrail report without the report builder', () => {
  it('fails with a clear message and exit 2', async () => {
    // A copy of the CLI that can resolve its dependencies (@cctrail/core, secretlint's preset, the expression
    // parser that reads the preset's keywords) but not @cctrail/report.
    const copy = join(work, 'install');
    const cli = fileURLToPath(new URL('..', import.meta.url));
    await cp(join(cli, 'dist'), join(copy, 'dist'), { recursive: true });
    await cp(join(cli, 'package.json'), join(copy, 'package.json'));
    for (const scope of ['@cctrail', '@secretlint', '@eslint-community']) {
      await mkdir(join(copy, 'node_modules', scope), { recursive: true });
      for (const name of await readdir(join(cli, 'node_modules', scope)))
        if (`${scope}/${name}` !== '@cctrail/report')
          await symlink(join(cli, 'node_modules', scope, name), join(copy, 'node_modules', scope, name));
    }
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(copy, 'dist', 'bin.js'), 'report', FIXTURES],
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the report builder (@cctrail/report) is not available');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
