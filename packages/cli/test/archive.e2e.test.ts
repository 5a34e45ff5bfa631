import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ArchiveIndex, ArchiveSessionSummary } from '@cctrail/core/archive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, lines } from './archive-e2e.js';
import { CORPUS, cctrail, FIXTURES, HAS_CORPUS, schemaErrors, transcriptFiles } from './helpers.js';

/**
 * The archive never forgets (issue #30): an archive outlives the transcripts it was made from, a filtered export
 * leaves the rest as it was, only `--prune` removes, `verify` finds every damaged file, and `report` builds the
 * pages of every session from the archive alone.
 */

const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const work = await mkdtemp(join(tmpdir(), 'cctrail-archive-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

const input = join(work, 'projects');
const archive = join(work, 'archive');
const SCENARIOS = ['linear', 'rewind', 'subagents-meta', 'multi-project', 'compaction'];

/** The original bytes of every transcript file, by its path under the projects folder. */
const originals = new Map<string, Buffer>();

async function index(): Promise<ArchiveIndex> {
  return JSON.parse(await readFile(join(archive, 'index.json'), 'utf8')) as ArchiveIndex;
}

/** What the archive keeps of a transcript: its `.gz` decompressed (every member). */
async function kept(shown: string): Promise<Buffer> {
  return gunzipSync(await readFile(join(archive, 'sources', `${shown}.gz`)));
}

beforeAll(async () => {
  for (const scenario of SCENARIOS) {
    const from = join(FIXTURES, scenario);
    for (const entry of await readdir(from, { withFileTypes: true }))
      if (entry.isDirectory()) await cp(join(from, entry.name), join(input, entry.name), { recursive: true });
  }
  for (const file of await filesUnder(input)) originals.set(file, await readFile(join(input, file)));
});

describe('an archive that never forgets', () => {
  let first: Map<string, ArchiveSessionSummary>;

  it('keeps every transcript file byte for byte, compressed, with a manifest', async () => {
    const run = await cctrail(['export', input, '-o', archive]);
    expect(run.code, run.stderr).toBe(0);
    first = lines(await index());
    expect(first.size).toBeGreaterThanOrEqual(8);
    for (const [file, bytes] of originals) expect((await kept(file)).equals(bytes), file).toBe(true);
    const manifest = JSON.parse(await readFile(join(archive, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.sources).sort()).toEqual([...originals.keys()].sort());
    expect((await cctrail(['verify', archive])).code).toBe(0);
  });

  it('survives deleted, truncated and rewritten transcripts, and a filtered export', async () => {
    const gone = [...originals.keys()].filter((f) => f.startsWith('-home-dev-notes/'));
    expect(gone.length).toBe(2);
    await rm(join(input, '-home-dev-notes'), { recursive: true });
    const linear = [...originals.keys()].find((f) => f.startsWith('-home-dev-linear/'))!;
    await truncate(join(input, linear), Math.floor(originals.get(linear)!.length / 2));
    const rewind = [...originals.keys()].filter((f) => f.startsWith('-home-dev-rewind/'));
    await writeFile(
      join(input, rewind[0]!),
      `{"type":"summary","summary":"a new first line","leafUuid":"y"}\n${originals.get(rewind[0]!)}`,
    );

    const run = await cctrail(['export', input, '-o', archive]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('2 sessions only in the archive');
    const after = lines(await index());
    expect([...after.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, line] of after) {
      const deleted = key.startsWith('-home-dev-notes/');
      expect(line.archived?.status, key).toBe(deleted ? 'missing' : undefined);
      if (deleted) expect(line.archived?.lastSeen).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // The deleted transcripts are still kept; the truncated and rewritten ones keep their earlier bytes too.
    for (const file of gone) expect((await kept(file)).equals(originals.get(file)!)).toBe(true);
    const superseded = await filesUnder(join(archive, 'superseded'));
    expect(superseded.map((f) => f.replace(/\.\d{4}-\d{2}-\d{2}(-\d+)?\.gz$/, '')).sort()).toEqual(
      [linear, rewind[0]!].sort(),
    );
    for (const file of superseded) {
      const original = file.replace(/\.\d{4}-\d{2}-\d{2}(-\d+)?\.gz$/, '');
      const bytes = gunzipSync(await readFile(join(archive, 'superseded', file)));
      expect(bytes.equals(originals.get(original)!), file).toBe(true);
    }
    expect((await kept(linear)).length).toBe(Math.floor(originals.get(linear)!.length / 2));

    // A filtered export updates what it selects and leaves every other session as it was.
    const filtered = await cctrail(['export', input, '-p', 'compaction', '-o', archive]);
    expect(filtered.code, filtered.stderr).toBe(0);
    const narrowed = lines(await index());
    expect([...narrowed.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, line] of narrowed) {
      const status = key.startsWith('-home-dev-notes/')
        ? 'missing'
        : key.startsWith('-home-dev-compaction/')
          ? undefined
          : 'kept';
      expect(line.archived?.status, key).toBe(status);
    }
    expect(schemaErrors('index', await index())).toEqual([]);
    // `stats` of the archive says which sessions only the archive holds.
    const stats = await cctrail(['stats', '--json', archive]);
    const figures = JSON.parse(stats.stdout) as {
      sessions: { project: string; archived?: { status: string } }[];
    };
    expect(schemaErrors('stats', figures)).toEqual([]);
    expect(figures.sessions.filter((s) => s.archived?.status === 'missing').map((s) => s.project)).toEqual([
      '-home-dev-notes',
      '-home-dev-notes',
    ]);
    expect((await cctrail(['stats', archive])).stdout).toContain('2 sessions exist only in the archive');
  });

  it.skipIf(!REPORT_BUILT)('builds the report of every session from the archive alone', async () => {
    const moved = join(work, 'projects-away');
    await cp(input, moved, { recursive: true });
    await rm(input, { recursive: true });
    try {
      const site = join(work, 'site');
      const run = await cctrail(['report', archive, '-o', site]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(new RegExp(`Report of ${first.size} sessions`));
      const html = await readFile(join(site, 'index.html'), 'utf8');
      for (const line of first.values()) expect(html, line.id).toContain(line.id.slice(0, 8));
      // The two sessions whose transcripts were deleted say so.
      expect(html.match(/>only in the archive</g)).toHaveLength(2);
      expect(html).toContain(
        `Only in the archive: its transcript was deleted on or after ${new Date().toISOString().slice(0, 10)}.`,
      );
    } finally {
      await cp(moved, input, { recursive: true });
    }
  });

  it('verify names a flipped byte and a deleted file', async () => {
    const copy = join(work, 'damaged');
    await cp(archive, copy, { recursive: true });
    const gz = (await filesUnder(join(copy, 'sources')))[0]!;
    const path = join(copy, 'sources', gz);
    const bytes = await readFile(path);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
    await writeFile(path, bytes);
    const session = (await filesUnder(join(copy, 'sessions')))[0]!;
    await rm(join(copy, 'sessions', session));
    const run = await cctrail(['verify', copy]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`corrupt   sources/${gz}`);
    expect(run.stdout).toContain(`missing   sessions/${session}`);
    expect(run.stderr).toMatch(/2 problems\.\n$/);
  });

  it('--prune removes exactly the sessions it lists, and nothing else', async () => {
    const before = await filesUnder(archive);
    const run = await cctrail(['export', input, '--prune', '-o', archive]);
    expect(run.code, run.stderr).toBe(0);
    const listed = [...run.stderr.matchAll(/^Pruned (\S+) .*: (.*)$/gm)];
    expect(listed.map((m) => m[1]!.split('/')[0]).sort()).toEqual(['-home-dev-notes', '-home-dev-notes']);
    const removed = listed.flatMap((m) => m[2]!.split(', '));
    const after = await filesUnder(archive);
    expect(before.filter((f) => !after.includes(f)).sort()).toEqual(removed.sort());
    const now = lines(await index());
    expect([...now.keys()].sort()).toEqual(
      [...first.keys()].filter((k) => !k.startsWith('-home-dev-notes/')).sort(),
    );
    expect((await cctrail(['verify', archive])).code).toBe(0);
  });
});

describe('an archive of sources only', () => {
  it('holds the kept transcripts, the index and the manifest, stays so, and reads as any archive', async () => {
    const from = HAS_CORPUS ? CORPUS : FIXTURES;
    const dir = join(work, 'sources-only');
    const run = await cctrail(['export', from, '--sources-only', '-o', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      '.cctrail-state.json',
      'index.json',
      'manifest.json',
      'sources',
    ]);
    const size = (await filesUnder(dir)).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    const input = transcriptFiles(from).reduce((n, f) => n + statSync(f).size, 0);
    if (HAS_CORPUS) expect(size / input).toBeLessThan(0.3);
    const full = join(work, 'sources-only-reference');
    expect((await cctrail(['export', from, '-o', full])).code).toBe(0);
    const [mine, theirs] = [
      lines(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))),
      lines(JSON.parse(await readFile(join(full, 'index.json'), 'utf8'))),
    ];
    expect(mine).toEqual(theirs);
    // A later export without the option keeps it so; a full archive cannot become one.
    expect((await cctrail(['export', from, '-o', dir])).code).toBe(0);
    expect(await readdir(dir)).not.toContain('sessions');
    const refused = await cctrail(['export', from, '--sources-only', '-o', full]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('an archive of sources only needs a new folder');
    expect((await cctrail(['verify', dir])).code).toBe(0);
    const again = join(work, 'from-sources-only');
    expect((await cctrail(['export', dir, '-o', again])).code).toBe(0);
    for (const [key, line] of lines(JSON.parse(await readFile(join(again, 'index.json'), 'utf8'))))
      expect(await readFile(join(again, line.file), 'utf8'), key).toBe(
        await readFile(join(full, theirs.get(key)!.file), 'utf8'),
      );
  });
});

describe.skipIf(!REPORT_BUILT)('a report with --short-home', () => {
  it('keeps each session once over rebuilds, and marks a deleted one missing', async () => {
    const input = join(work, 'short-home');
    await cp(join(FIXTURES, 'multi-project'), input, { recursive: true });
    const site = join(work, 'short-home-site');
    const first = await cctrail(['report', input, '-o', site, '--short-home']);
    expect(first.code, first.stderr).toBe(0);
    const count = /Report of (\d+) sessions/.exec(first.stderr)?.[1];
    await rm(join(input, '-home-dev-notes'), { recursive: true });
    const second = await cctrail(['report', input, '-o', site, '--short-home']);
    expect(second.code, second.stderr).toBe(0);
    expect(/Report of (\d+) sessions/.exec(second.stderr)?.[1]).toBe(count);
    expect(second.stderr).toContain("2 sessions only in the report's archive");
  });
});

describe('a session some of whose files Claude Code deleted', () => {
  it('is built from the files the input still has and those only the archive keeps, as it was', async () => {
    const input = join(work, 'partial-input');
    await cp(join(FIXTURES, 'subagents-meta'), input, { recursive: true });
    const dir = join(work, 'partial-archive');
    expect((await cctrail(['export', input, '-o', dir])).code).toBe(0);
    const before = lines(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')));
    const [key, line] = [...before][0]!;
    const file = await readFile(join(dir, line.file), 'utf8');
    // One agent transcript and its sidecar go; the main file and the other agents stay.
    const subagents = (await filesUnder(input)).filter((f) => f.includes('/subagents/agent-'));
    const agent = subagents.find((f) => f.endsWith('.jsonl'))!;
    await rm(join(input, agent));
    await rm(join(input, agent.replace(/\.jsonl$/, '.meta.json')), { force: true });
    const run = await cctrail(['export', input, '-o', dir]);
    expect(run.code, run.stderr).toBe(0);
    const after = lines(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')));
    expect(after.get(key)).toEqual(before.get(key));
    expect(await readFile(join(dir, line.file), 'utf8')).toBe(file);
    expect((await cctrail(['verify', dir])).code).toBe(0);
  });
});
