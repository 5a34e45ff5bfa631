import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import type { Session } from '../src/views/model.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/**
 * #31: a session whose file is larger than a report can read whole (over 512 MiB of JSON for a million lines)
 * is read and rendered one transcript page at a time. Here every session file is over a lowered limit
 * (`CCTRAIL_TEST_SESSION_JSON_LIMIT`), and the site is compared with the one built from the same archive read
 * whole: the same pages, each byte-identical but the first page of each session (which leaves out what needs
 * every entry at once: the outline, flowchart and timeline), and every entry on a page.
 */

const tmp = tempFolder('cctrail-paged-');
const dataDir = join(tmp, 'data');
const whole = join(tmp, 'whole');
const paged = join(tmp, 'paged');

/** Files of a folder, relative to it, sorted. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

/** Ids of the entry anchors (`e-…`) in a page. */
function anchors(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/\sid="(e-[^"]*)"/g)].map((m) => m[1]!);
}

const sessions: { project: string; session: Session }[] = [];
/** The first page of each session (`s/<project>/<session>/index.html`). */
const firstPages = new Set<string>();

beforeAll(async () => {
  const projects = [];
  for (const scenario of [
    'rewind',
    'subagents-meta',
    'compaction',
    'damaged',
    'agents-2026',
    'inline-sidechain',
  ])
    projects.push(...(await scenarioProjects(scenario)));
  // Five pages of prompts and answers, and the demo's tool calls, images and agents.
  projects.push({ id: 'long', cwd: '/home/dev/long', sessions: [linearSession('long', 700), demoSession()] });
  writeArchive(dataDir, projects, (index) => {
    // The report's own archive keeps its sessions compressed: the long one is read from a `.json.br`.
    const line = index.projects.find((p) => p.id === 'long')!.sessions[0]!;
    const text = readFileSync(join(dataDir, line.file));
    rmSync(join(dataDir, line.file));
    line.file = `${line.file}.br`;
    writeFileSync(join(dataDir, line.file), brotliCompressSync(text));
  });
  for (const p of projects) for (const session of p.sessions) sessions.push({ project: p.id, session });
  await buildReport({ dataDir, outDir: whole, cacheDir: false });
  process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT = '1';
  try {
    await buildReport({ dataDir, outDir: paged, cacheDir: false });
  } finally {
    delete process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT;
  }
  for (const file of filesOf(whole)) if (/^s\/[^/]+\/[^/]+\/index\.html$/.test(file)) firstPages.add(file);
}, 300_000);

afterAll(() => {
  delete process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT;
});

describe('sessions over the limit of a file read whole', () => {
  it('have every page, each the same as when read whole but their first', () => {
    const pages = filesOf(whole).filter((f) => f.endsWith('.html'));
    expect(filesOf(paged).filter((f) => f.endsWith('.html'))).toEqual(pages);
    expect(firstPages.size).toBe(sessions.length);
    // Pages beyond the first: the long session's, agents', branches'.
    const others = pages.filter((f) => f.startsWith('s/') && !firstPages.has(f));
    expect(others.length).toBeGreaterThan(10);
    for (const file of pages.filter((f) => !firstPages.has(f)))
      expect(readFileSync(join(paged, file), 'utf8'), file).toBe(readFileSync(join(whole, file), 'utf8'));
  });

  it('show every entry, and say what their first page leaves out instead of why there is no transcript', () => {
    let total = 0;
    for (const first of firstPages) {
      const dir = first.slice(0, -'index.html'.length);
      const ofSession = filesOf(whole).filter((f) => f.startsWith(dir) && f.endsWith('.html'));
      const shown = (root: string) => new Set(ofSession.flatMap((f) => anchors(join(root, f))));
      const expected = shown(whole);
      expect([...shown(paged)].sort(), dir).toEqual([...expected].sort());
      total += expected.size;
      const text = readFileSync(join(paged, first), 'utf8');
      expect(text).toContain('This session is too large to be read at once');
      expect(text).not.toContain('its transcript is not shown');
    }
    expect(total).toBeGreaterThan(700);
  });

  it('are left out of the search index only', () => {
    const searchFiles = (root: string) => filesOf(root).filter((f) => f.startsWith('_cctrail/search'));
    expect(searchFiles(whole).length).toBeGreaterThan(searchFiles(paged).length);
    const rest = (root: string) =>
      filesOf(root).filter((f) => !f.startsWith('_cctrail/search') && !f.endsWith('.html'));
    expect(rest(paged)).toEqual(rest(whole));
  });

  it('are not read again by a rebuild of an unchanged archive', async () => {
    const outDir = join(tmp, 'rebuilt');
    const cacheDir = join(tmp, 'cache');
    const logs: string[][] = [[], []];
    process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT = '1';
    try {
      for (const log of logs) await buildReport({ dataDir, outDir, cacheDir, log: (m) => log.push(m) });
    } finally {
      delete process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT;
    }
    expect(logs[0]!.some((m) => /\d+ session files read/.test(m))).toBe(true);
    expect(logs[1]!.filter((m) => /session files read/.test(m))).toEqual([]);
    expect(readFileSync(join(outDir, [...firstPages][0]!), 'utf8')).toBe(
      readFileSync(join(paged, [...firstPages][0]!), 'utf8'),
    );
  }, 120_000);
});
