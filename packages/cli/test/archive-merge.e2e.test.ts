import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '@cctrail/core';
import type { ArchiveIndex } from '@cctrail/core/archive';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, lines } from './archive-e2e.js';
import { cctrail, FIXTURES, schemaErrors } from './helpers.js';

/**
 * Archives made elsewhere: one written at an older schema is upgraded in place by the next export, and two
 * machines' archives merge into one.
 */

/** A transcript's lines, each with its newline. */
function originalLines(file: string): string[] {
  return readFileSync(file, 'utf8').split(/(?<=\n)/);
}

const work = await mkdtemp(join(tmpdir(), 'cctrail-archive-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/**
 * A session file as cctrail wrote it at schema 2 (before the archive kept sources) or 3 (before `duplicateOf`
 * left the session files for `index.json`).
 */
function olderSessionFile(text: string, version: 2 | 3): string {
  const session = JSON.parse(text) as Record<string, unknown>;
  const older: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(session)) {
    if (key === 'diagnostics') older.duplicateOf = null;
    older[key] = key === 'schemaVersion' ? version : value;
  }
  return `${JSON.stringify(older)}\n`;
}

describe.each([2, 3] as const)('an archive of schema %i', (version) => {
  it('is upgraded in place by the next export, without losing a session', async () => {
    const old = join(work, `old-input-${version}`);
    const dir = join(work, `old-archive-${version}`);
    await cp(join(FIXTURES, 'multi-project'), old, { recursive: true });
    expect((await cctrail(['export', old, '-o', dir])).code).toBe(0);
    // What an older cctrail wrote, without sources to read the sessions again from: the same files at the
    // older schema, no manifest.
    await rm(join(dir, 'sources'), { recursive: true });
    await rm(join(dir, 'manifest.json'));
    await rm(join(dir, '.cctrail-state.json'));
    const idx = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ArchiveIndex;
    await writeFile(join(dir, 'index.json'), JSON.stringify({ ...idx, schemaVersion: version }, null, 1));
    for (const file of await filesUnder(join(dir, 'sessions'))) {
      const path = join(dir, 'sessions', file);
      await writeFile(path, olderSessionFile(await readFile(path, 'utf8'), version));
    }
    const before = lines(idx);
    await rm(join(old, '-home-dev-notes'), { recursive: true });

    const run = await cctrail(['export', old, '-o', dir]);
    expect(run.code, run.stderr).toBe(0);
    const upgraded = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ArchiveIndex;
    expect(upgraded.schemaVersion).toBe(SCHEMA_VERSION);
    expect(schemaErrors('index', upgraded)).toEqual([]);
    const after = lines(upgraded);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [key, line] of after) {
      expect(line.archived, key).toEqual(
        key.startsWith('-home-dev-notes/') ? { status: 'missing', lastSeen: null } : undefined,
      );
      const session = JSON.parse(await readFile(join(dir, line.file), 'utf8'));
      expect(session.schemaVersion, key).toBe(SCHEMA_VERSION);
      // Kept without sources or written again, a session file no longer holds the cross-session duplicateOf.
      expect(Object.hasOwn(session, 'duplicateOf'), key).toBe(false);
      expect(schemaErrors('session', session), key).toEqual([]);
    }
    expect((await cctrail(['verify', dir])).code).toBe(0);
  });
});

describe('two machines’ archives', () => {
  it('merge into one: every session once (the longer copy), conversations joined across them', async () => {
    const project = '-home-dev-conversations';
    const all = join(FIXTURES, 'conversations', project);
    const names = (await readdir(all, { withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    // Conversation X runs over 1d5f96ad → 008d9023 (+ its agent folder) → e32cd6b1: machine A has the first
    // file, machine B the last, both have the middle one (A only its first half, as if A synced it early).
    const machine = async (name: string, files: string[]) => {
      const dir = join(work, `machine-${name}`, project);
      await mkdir(dir, { recursive: true });
      for (const file of files) await cp(join(all, file), join(dir, file));
      return join(work, `machine-${name}`);
    };
    const middle = '008d9023-a959-4d2f-85bf-30b05c681519';
    const a = await machine(
      'a',
      names.filter((n) => !n.startsWith('e32cd6b1')),
    );
    const b = await machine(
      'b',
      names.filter((n) => n.startsWith('e32cd6b1') || n.startsWith(middle)),
    );
    await cp(join(all, middle), join(b, project, middle), { recursive: true });
    const half = originalLines(join(all, `${middle}.jsonl`));
    await writeFile(join(a, project, `${middle}.jsonl`), half.slice(0, Math.ceil(half.length / 2)).join(''));
    for (const [name, dir] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const run = await cctrail(['export', dir, '-o', join(work, `archive-${name}`)]);
      expect(run.code, run.stderr).toBe(0);
    }
    const merged = join(work, 'merged');
    const run = await cctrail(['export', join(work, 'archive-a'), join(work, 'archive-b'), '-o', merged]);
    expect(run.code, run.stderr).toBe(0);
    const reference = join(work, 'merged-reference');
    expect((await cctrail(['export', join(FIXTURES, 'conversations'), '-o', reference])).code).toBe(0);
    const read = async (dir: string) =>
      JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ArchiveIndex;
    const [got, want] = [await read(merged), await read(reference)];
    expect([...lines(got).keys()].sort()).toEqual([...lines(want).keys()].sort());
    // The longer copy of the middle file won: every session file is the one of a single machine's export.
    for (const [key, line] of lines(want)) {
      const mine = await readFile(join(merged, lines(got).get(key)!.file), 'utf8');
      expect(mine, key).toBe(await readFile(join(reference, line.file), 'utf8'));
    }
    expect(got.conversations?.map((c) => c.sessions.map((s) => s.id))).toEqual(
      want.conversations?.map((c) => c.sessions.map((s) => s.id)),
    );
    expect((await cctrail(['verify', merged])).code).toBe(0);
  });
});
