import { appendFile, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Session } from '@cctrail/core';
import type { ArchiveIndex } from '@cctrail/core/archive';
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

const work = await mkdtemp(join(tmpdir(), 'cctrail-export-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** Every file below a folder with its bytes, for before/after comparisons. */
async function snapshotFolder(dir: string): Promise<Map<string, { bytes: string; mtimeMs: number }>> {
  const out = new Map<string, { bytes: string; mtimeMs: number }>();
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else
        out.set(relative(dir, path), {
          bytes: await readFile(path, 'utf8'),
          mtimeMs: (await stat(path)).mtimeMs,
        });
    }
  }
  return out;
}

async function readArchive(dir: string): Promise<{ index: ArchiveIndex; sessions: Session[] }> {
  const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ArchiveIndex;
  const sessions: Session[] = [];
  for (const project of index.projects) {
    for (const summary of project.sessions) {
      sessions.push(JSON.parse(await readFile(join(dir, ...summary.file.split('/')), 'utf8')) as Session);
    }
  }
  return { index, sessions };
}

/** Checks an archive against the schemas and its input, line by line. */
function checkArchive(archive: { index: ArchiveIndex; sessions: Session[] }, inputLines: number) {
  expect(schemaErrors('index', archive.index)).toEqual([]);
  let accounted = 0;
  for (const session of archive.sessions) {
    expect(schemaErrors('session', session), session.id).toEqual([]);
    const a = session.accounting;
    // Every line is an entry, a metadata record, a duplicate, a blank line or a diagnostic with its raw text.
    expect(a.entries + a.metadata + a.duplicates + a.blank + a.invalid - a.recovered, session.id).toBe(
      a.lines,
    );
    expect(session.entries.length, session.id).toBe(a.entries);
    expect(session.metadata.length, session.id).toBe(a.metadata);
    expect(session.diagnostics.filter((d) => d.raw !== undefined).length, session.id).toBeGreaterThanOrEqual(
      a.invalid,
    );
    accounted += a.lines;
  }
  expect(accounted).toBe(inputLines);
}

const scenarios = fixtureScenarios().length > 0 ? [FIXTURES] : [];
const fixtureLines = fixtureScenarios()
  .flatMap(transcriptFiles)
  .reduce((sum, file) => sum + countLines(file), 0);

describe.skipIf(scenarios.length === 0)('cctrail export on fixtures/', () => {
  const out = join(work, 'fixtures');

  it('writes a valid archive that accounts for every input line', async () => {
    const run = await cctrail(['export', ...scenarios, '-o', out]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Exported \d+ sessions to .* \(\d+ written, 0 unchanged\)\n$/);
    const archive = await readArchive(out);
    expect(archive.sessions.length).toBeGreaterThan(0);
    checkArchive(archive, fixtureLines);
    // Paths in the output are relative to the input root.
    for (const session of archive.sessions) {
      for (const file of session.files) expect(file.path.startsWith('/')).toBe(false);
    }
  });

  it('changes nothing when run again over the same input', async () => {
    const before = await snapshotFolder(out);
    const run = await cctrail(['export', ...scenarios, '-o', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\(0 written, \d+ unchanged\)/);
    expect(await snapshotFolder(out)).toEqual(before);
  });

  it('rebuilds only the session whose transcript changed', async () => {
    const input = join(work, 'changing');
    await cp(join(FIXTURES, 'rewind'), input, { recursive: true });
    const archive = join(work, 'changing-out');
    expect((await cctrail(['export', input, '-o', archive])).code).toBe(0);
    const before = await snapshotFolder(archive);
    const [file] = transcriptFiles(input);
    const lines = (await readFile(file!, 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    await appendFile(file!, `${JSON.stringify({ ...last, uuid: 'appended-1', parentUuid: last.uuid })}\n`);
    const run = await cctrail(['export', input, '-o', archive]);
    expect(run.stdout).toMatch(/\(2 written, 1 unchanged\)/);
    expect(run.stderr).toContain('Sources kept: 1 file changed (0 new, 1 grown)');
    const after = await snapshotFolder(archive);
    const changed = [...after.keys()]
      .filter((key) => after.get(key)?.bytes !== before.get(key)?.bytes)
      .sort();
    // The state, the index, the manifest, the session file and its kept transcript, nothing else.
    expect(changed.slice(0, 3)).toEqual(['.cctrail-state.json', 'index.json', 'manifest.json']);
    expect(changed.slice(3).map((p) => p.split(sep)[0])).toEqual(['sessions', 'sources']);
    // The kept transcript grew by one gzip member holding the appended line, not by a second copy.
    const kept = changed[4]!;
    const grown = Buffer.byteLength(after.get(kept)!.bytes, 'latin1');
    const was = Buffer.byteLength(before.get(kept)!.bytes, 'latin1');
    expect(grown - was).toBeLessThan(Math.max(400, was / 2));
  });

  it('rewrites paths when the same transcripts are read from another root', async () => {
    const archive = join(work, 'roots');
    await cctrail(['export', join(FIXTURES, 'rewind'), '-o', archive]);
    const run = await cctrail(['export', FIXTURES, '--project', 'rewind', '-o', archive]);
    expect(run.code).toBe(0);
    const { index, sessions } = await readArchive(archive);
    const sources = index.projects.flatMap((p) => p.sessions.flatMap((s) => s.sources));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((s) => s.startsWith('rewind/'))).toBe(true);
    expect(sessions.every((s) => s.entries.every((e) => e.source.file.startsWith('rewind/')))).toBe(true);
  });

  it('leaves the archive alone when the filters match nothing', async () => {
    const before = await snapshotFolder(out);
    const run = await cctrail(['export', ...scenarios, '-o', out, '--until', '2000-01-01']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('No session matches the filters;');
    expect(await snapshotFolder(out)).toEqual(before);
  });

  it('marks duplicates in the index alone: a session file holds what its own transcripts say', async () => {
    const { index, sessions } = await readArchive(out);
    const duplicates = index.projects.flatMap((p) => p.sessions).filter((s) => s.duplicateOf !== null);
    expect(duplicates.length).toBeGreaterThan(0);
    expect(sessions.filter((s) => 'duplicateOf' in s).map((s) => s.id)).toEqual([]);
  });

  it('streams NDJSON with -o -: sessions, then the index (built without worker threads)', async () => {
    const run = await cctrail(['export', ...scenarios, '-o', '-'], { env: { CCTRAIL_WORKERS: '0' } });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const index = JSON.parse(lines.pop()!) as ArchiveIndex;
    expect(schemaErrors('index', index)).toEqual([]);
    const sessions = lines.map((line) => JSON.parse(line) as Session);
    expect(sessions.length).toBe(index.projects.reduce((n, p) => n + p.sessions.length, 0));
    for (const session of sessions) expect(schemaErrors('session', session)).toEqual([]);
    // The folder export (worker threads) and the stream (main thread) hold the same sessions.
    const folder = await readArchive(out);
    expect(sessions).toEqual(folder.sessions);
  });

  it('keeps the sessions a filtered export leaves out, as they were', async () => {
    const partial = join(work, 'partial');
    await cctrail(['export', ...scenarios, '-o', partial]);
    const before = await readArchive(partial);
    const files = [...(await snapshotFolder(partial)).entries()];
    const run = await cctrail(['export', ...scenarios, '-o', partial, '--project', 'linear']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Exported 1 session to .*\(\d+ written, \d+ unchanged\)\n$/);
    const after = await readArchive(partial);
    expect(after.sessions).toEqual(before.sessions);
    const lines = after.index.projects.flatMap((p) => p.sessions.map((s) => [p.slug, s] as const));
    for (const [slug, line] of lines)
      expect(line.archived, `${slug}/${line.id}`).toEqual(
        slug === '-home-dev-linear' ? undefined : { status: 'kept', lastSeen: expect.any(String) },
      );
    // Every session file and kept transcript is byte for byte what it was.
    const now = await snapshotFolder(partial);
    for (const [path, file] of files)
      if (!['.cctrail-state.json', 'index.json', 'manifest.json'].includes(path))
        expect(now.get(path)?.bytes, path).toBe(file.bytes);
  });
});

describe('cctrail export with hostile ids', () => {
  it('never writes outside the output folder and keeps names apart', async () => {
    const projects = join(work, 'hostile', 'projects');
    const line = (id: string) =>
      `${JSON.stringify({
        type: 'user',
        uuid: `u-${id.length}`,
        parentUuid: null,
        sessionId: '../../../etc/passwd',
        timestamp: '2025-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'hello' },
      })}\n`;
    const files: Record<string, string[]> = {
      'x..y': ['...jsonl', '..\\..\\x.jsonl', '.jsonl'],
      CON: ['Abc.jsonl', 'abc.jsonl', 'CON.jsonl'],
      'a b%2F..': ['x:y.jsonl'],
      '.hidden': ['s.jsonl'],
    };
    const { mkdir } = await import('node:fs/promises');
    for (const [slug, names] of Object.entries(files)) {
      await mkdir(join(projects, slug), { recursive: true });
      for (const name of names) await writeFile(join(projects, slug, name), line(name));
    }
    const out = join(work, 'hostile', 'out', 'archive');
    // A hidden project folder is skipped inside a projects folder, so it is also given by name.
    const run = await cctrail(['export', projects, join(projects, '.hidden'), '-o', out]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    // Nothing lands beside the archive folder.
    expect(await readdir(join(work, 'hostile', 'out'))).toEqual(['archive']);
    const all = [...(await snapshotFolder(out)).keys()];
    // Each transcript is kept under its own name (a later read needs it), inside the archive's sources/.
    const kept = all.filter((p) => p.startsWith(`sources${sep}`));
    expect(kept.map((p) => p.slice('sources/'.length)).sort()).toEqual(
      Object.entries(files)
        .flatMap(([slug, names]) => names.map((name) => `${slug}${sep}${name}.gz`))
        .sort(),
    );
    const written = all.filter((p) => !p.startsWith(`sources${sep}`));
    expect(written).toHaveLength(11);
    for (const path of written.filter((p) => p !== '.cctrail-state.json')) {
      for (const segment of path.split(sep)) {
        expect(segment).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
        expect(segment).not.toContain('..');
      }
    }
    const lower = written.map((p) => p.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
    const { index, sessions } = await readArchive(out);
    expect(schemaErrors('index', index)).toEqual([]);
    expect(sessions.map((s) => s.id).sort()).toEqual(
      ['', '..', '..\\..\\x', 'Abc', 'CON', 'abc', 's', 'x:y'].sort(),
    );
  });
});

describe.skipIf(!HAS_CORPUS)('cctrail export on ../shared/corpus', () => {
  it('writes a valid archive that accounts for every input line, and a re-run changes nothing', async () => {
    const out = join(work, 'corpus');
    const run = await cctrail(['export', CORPUS, '-o', out]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const lines = transcriptFiles(CORPUS).reduce((sum, file) => sum + countLines(file), 0);
    checkArchive(await readArchive(out), lines);
    const before = await snapshotFolder(out);
    const again = await cctrail(['export', CORPUS, '-o', out]);
    expect(again.stdout).toMatch(/\(0 written, \d+ unchanged\)/);
    expect(await snapshotFolder(out)).toEqual(before);
  });
});
