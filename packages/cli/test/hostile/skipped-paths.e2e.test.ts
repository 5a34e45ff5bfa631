import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES, schemaErrors } from '../helpers.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-skipped-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

// A projects folder with one readable project and three paths that are not read.
const projects = join(work, 'projects');
mkdirSync(projects);
cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-linear'), { recursive: true });
const outside = join(work, 'outside');
cpSync(join(FIXTURES, 'compaction', '-home-dev-compaction'), outside, { recursive: true });
symlinkSync(outside, join(projects, '-home-dev-outside'));
mkdirSync(join(projects, '-home-dev-linear', 'folder.jsonl'));
execFileSync('mkfifo', [join(projects, '-home-dev-linear', 'pipe.jsonl')]);
// A project folder and a transcript whose names are not UTF-8 (Node.js can list them, not open them), and a
// hidden folder holding a project (not searched, by design: a note).
const notUtf8 = (path: string) => Buffer.concat([Buffer.from(path), Buffer.from([0xff])]);
mkdirSync(notUtf8(join(projects, '-home-dev-bad')));
writeFileSync(
  Buffer.concat([notUtf8(join(projects, '-home-dev-linear', 's')), Buffer.from('.jsonl')]),
  '{}\n',
);
cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '.hidden', '-home-dev-x'), {
  recursive: true,
});
const NOT_UTF8 = 'Not read: its name is not valid UTF-8 (rename it to read it).';
const SKIPPED = [
  ['-home-dev-bad\uFFFD', NOT_UTF8],
  ['-home-dev-linear/folder.jsonl', 'Not read: a folder named like a transcript.'],
  ['-home-dev-linear/pipe.jsonl', 'Not read: not a regular file (a FIFO, socket or device).'],
  ['-home-dev-linear/s\uFFFD.jsonl', NOT_UTF8],
  ['-home-dev-outside', `Not read: a symbolic link out of the folder given (to ${outside}).`],
  ['.hidden', 'Not read: a hidden folder (its name starts with a dot; give it as an input to read it).'],
];

type Listed = { code: string; file: string; line: null; message: string; severity: string };
const listed = (diagnostics: Listed[] | undefined) =>
  (diagnostics ?? []).map((d) => {
    expect(d.code).toBe('skipped-path');
    expect(d.line).toBeNull();
    // A hidden folder is a note; the others are warnings.
    expect(d.severity).toBe(d.file === '.hidden' ? 'info' : 'warning');
    return [d.file, d.message];
  });

describe('input paths that are not read (#19) are diagnostics of the archive', () => {
  it('export: in index.json, valid against its schema', async () => {
    const out = join(work, 'archive');
    const run = await cctrail(['export', projects, '-o', out]);
    expect(run.code).toBe(0);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'));
    expect(schemaErrors('index', index)).toEqual([]);
    expect(listed(index.diagnostics)).toEqual(SKIPPED);
  });

  it('stats --json: as its diagnostics, valid against its schema', async () => {
    const run = await cctrail(['stats', projects, '--json', '--no-cache']);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(schemaErrors('stats', stats)).toEqual([]);
    expect(listed(stats.diagnostics)).toEqual(SKIPPED);
  });

  it('says on the terminal which hidden folders it did not search, in one note', async () => {
    const run = await cctrail(['stats', projects, '--no-cache']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `cctrail: note: not searched: a hidden folder, ${join(projects, '.hidden')}`,
    );
    expect(run.stderr).toContain(
      `cctrail: skipped ${join(projects, '-home-dev-bad\uFFFD')}: its name is not valid UTF-8`,
    );
    expect(run.stderr).not.toContain('no such file');
    expect(run.stderr).not.toContain('the file is gone');
  });

  it('stats --json of a folder where everything is read has none', async () => {
    const run = await cctrail(['stats', join(FIXTURES, 'linear'), '--json', '--no-cache']);
    expect(JSON.parse(run.stdout).diagnostics).toBeUndefined();
  });

  it.skipIf(!REPORT_BUILT)(
    "report: on the index page's list of paths not read",
    async () => {
      const out = join(work, 'site');
      const run = await cctrail(['report', projects, '-o', out]);
      expect(run.code).toBe(0);
      const html = await readFile(join(out, 'index.html'), 'utf8');
      expect(html).toContain('Not read');
      for (const [file] of SKIPPED) expect(html).toContain(file);
    },
    180_000,
  );
});
