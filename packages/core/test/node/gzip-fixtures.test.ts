/**
 * Every fixture, gzip-compressed file by file (as `cctrail export` keeps sources), reads as the plain fixture:
 * the same sessions, entries, diagnostics (files and line numbers included) and statistics.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionStats } from '../../src/archive/index.js';
import { buildSession, type Session } from '../../src/index.js';
import { type Discovery, discover, sessionSource } from '../../src/node/index.js';
import { FIXTURES } from '../fixture-sessions.js';
import { gzipTree, type Members } from './gzip-copy.js';

const scenarios = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const temp = mkdtempSync(join(tmpdir(), 'cctrail-gzip-fixtures-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }), 0);

/** The main file of `side-command` (it holds a `·`, two bytes in UTF-8) is kept as three gzip members. */
const SPLIT_SCENARIO = 'side-command';
const SPLIT_FILE = '-home-dev-side-command/be0132bc-70f8-4ae4-bb21-654280cfc003.jsonl';

/** Two cut points: one inside a multi-byte UTF-8 character, one inside a line (far from the first). */
function cutPoints(bytes: Uint8Array): number[] {
  const isContinuation = (at: number) => (bytes[at]! & 0xc0) === 0x80;
  const inCharacter = bytes.findIndex((_, at) => at > 0 && isContinuation(at));
  let inLine = Math.floor((bytes.length * 2) / 3);
  while (bytes[inLine - 1] === 0x0a || bytes[inLine] === 0x0a || isContinuation(inLine)) inLine++;
  return [inCharacter, inLine];
}

async function sessionsOf(dir: string, blocking: boolean): Promise<Session[]> {
  const found = await discover([dir]);
  const out: Session[] = [];
  for (const project of found.projects)
    for (const s of project.sessions)
      out.push(await buildSession(await sessionSource(s, (p) => relative(dir, p), { blocking })));
  return out;
}

/** What discovery found, paths relative to the folder and without `.gz`. */
function shape(found: Discovery, dir: string) {
  const shown = (path: string) => relative(dir, path).replace(/\.gz$/, '');
  return found.projects.map((project) => ({
    slug: project.slug,
    sessions: project.sessions.map((s) => ({
      id: s.id,
      main: s.mainFile === null ? null : shown(s.mainFile),
      agents: s.agentFiles.map(shown),
      metas: s.metaFiles.map(shown),
      workflows: (s.workflowFiles ?? []).map(shown),
    })),
  }));
}

describe('gzip-compressed fixtures', () => {
  it('cut the split file inside a character and inside a line', () => {
    const bytes = readFileSync(join(FIXTURES, SPLIT_SCENARIO, SPLIT_FILE));
    const [inCharacter, inLine] = cutPoints(bytes);
    expect(inCharacter).toBeGreaterThan(0);
    expect(inLine).toBeGreaterThan(inCharacter!);
    expect(bytes[inCharacter!]! & 0xc0).toBe(0x80);
    expect(bytes[inLine! - 1]).not.toBe(0x0a);
    expect(bytes[inLine!]).not.toBe(0x0a);
  });

  it.each(scenarios)('%s reads the same from .gz files as from the plain files', async (scenario) => {
    const plain = join(temp, scenario, 'plain');
    const compressed = join(temp, scenario, 'gz');
    cpSync(join(FIXTURES, scenario), plain, { recursive: true });
    const members: Members =
      scenario === SPLIT_SCENARIO ? { [SPLIT_FILE]: cutPoints(readFileSync(join(plain, SPLIT_FILE))) } : {};
    gzipTree(plain, compressed, members);

    const [plainFound, gzFound] = await Promise.all([discover([plain]), discover([compressed])]);
    expect(gzFound.projects.length).toBeGreaterThan(0);
    expect(shape(gzFound, compressed)).toEqual(shape(plainFound, plain));
    const gzMain = gzFound.projects[0]!.sessions.find((s) => s.mainFile !== null)!.mainFile!;
    expect(gzMain.endsWith('.jsonl.gz')).toBe(true);

    const expected = await sessionsOf(plain, false);
    expect(expected.length).toBeGreaterThan(0);
    for (const blocking of [false, true]) {
      const actual = await sessionsOf(compressed, blocking);
      expect(actual).toEqual(expected);
      expect(actual.map(sessionStats)).toEqual(expected.map(sessionStats));
    }
  });
});
