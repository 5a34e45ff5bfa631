import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers.js';
import {
  BIN,
  changedFiles,
  fileStates,
  gatherStderr,
  LINEAR,
  PROJECT,
  REPORT_BUILT,
  SOURCE,
} from './serve-e2e.js';

// `cctrail report --watch` as a user runs it: the real binary rebuilding a folder when a session changes, and
// writing an append into its session's last page by the append path.

describe.skipIf(!REPORT_BUILT)('cctrail report --watch', () => {
  it('rebuilds the folder when a session changes, and stops cleanly', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cctrail-watch-'));
    try {
      cpSync(join(FIXTURES, 'linear'), join(work, 'projects'), { recursive: true });
      rmSync(join(work, 'projects', 'expected.json'));
      rmSync(join(work, 'projects', 'facts.json'));
      const child = spawn(
        process.execPath,
        [BIN, 'report', '--watch', join(work, 'projects'), '-o', join(work, 'site')],
        {
          env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), HOME: work },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const log = gatherStderr(child);
      await log.seen(/Watching /);
      const page = join(work, 'site', 'index.html');
      expect(existsSync(page)).toBe(true);
      // A second session in a new project.
      const added = join(work, 'projects', '-home-dev-other', 'b0000000-0000-4000-8000-000000000001.jsonl');
      mkdirSync(join(added, '..'));
      const line = readFileSync(
        join(work, 'projects', '-home-dev-linear', '88b9af8e-2314-4b66-9a90-221c50a7db10.jsonl'),
        'utf8',
      )
        .split('\n')
        .find((l) => l.includes('"type":"user"')) as string;
      writeFileSync(
        added,
        `${line.replaceAll('88b9af8e-2314-4b66-9a90-221c50a7db10', 'b0000000-0000-4000-8000-000000000001')}\n`,
      );
      await log.seen(/rebuilt in [\d.]+ s\n/);
      expect(log.text).toContain('-home-dev-other');
      expect(
        existsSync(
          join(work, 'site', 's', 'home-dev-other', 'b0000000-0000-4000-8000-000000000001', 'index.html'),
        ),
      ).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log.text).toMatch(/Stopped\.\n$/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.skipIf(!REPORT_BUILT)('cctrail report --watch, by the append path', () => {
  it("writes an append into its session's last page only, then rebuilds that session's pages and the index", async () => {
    const work = mkdtempSync(join(tmpdir(), 'cctrail-watch-live-'));
    try {
      const projects = join(work, 'projects');
      cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-linear'), {
        recursive: true,
      });
      cpSync(SOURCE, join(projects, PROJECT), { recursive: true });
      const site = join(work, 'site');
      const child = spawn(
        process.execPath,
        [BIN, 'report', '--watch', projects, '-o', site, '--settle', '600'],
        {
          env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), HOME: work },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const log = gatherStderr(child);
      await log.seen(/Watching /);
      const built = fileStates(site);
      const file = join(projects, '-home-dev-linear', `${LINEAR}.jsonl`);
      const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1) as string);
      const prompt = { ...last, parentUuid: last.uuid, uuid: 'e0000000-0000-4000-8000-000000000001' };
      delete prompt.subtype;
      delete prompt.durationMs;
      appendFileSync(
        file,
        `${JSON.stringify({ ...prompt, type: 'user', message: { role: 'user', content: 'Now **the docs**' } })}\n`,
      );
      await log.seen(/1 line appended to \/s\/home-dev-linear\//);
      // Only the session's last transcript page, with the new entry drawn in it.
      const live = fileStates(site);
      expect(changedFiles(built, live)).toEqual([`s/home-dev-linear/${LINEAR}/index.html`]);
      expect(readFileSync(join(site, 's/home-dev-linear', LINEAR, 'index.html'), 'utf8')).toContain(
        '<strong>the docs</strong>',
      );
      expect(log.text).not.toContain('rebuilding');
      // Stopping rebuilds the session waiting to be: its pages and the index, no other session's page.
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log.text.match(/rebuilding…/g)).toHaveLength(1);
      const rebuilt = changedFiles(live, fileStates(site));
      const pages = rebuilt.filter((f) => f.endsWith('.html'));
      // The index written again: the report writes a page only when its bytes change (its session's row did).
      expect(pages).toContain('index.html');
      expect(
        pages.filter((f) => f !== 'index.html' && !f.startsWith(`s/home-dev-linear/${LINEAR}/`)),
      ).toEqual([]);
      expect(rebuilt.filter((f) => f.startsWith('s/home-dev-agents-2026/'))).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});
