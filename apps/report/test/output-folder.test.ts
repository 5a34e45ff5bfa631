import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectOutputFolder } from '../src/index.js';
import type { ArchiveIndex } from '../src/views/model.js';
import { linearSession, summaryOf } from './helpers/demo.js';
import {
  build,
  dropSession,
  fixture,
  pick,
  put,
  RECORD,
  recordOf,
  refusal,
  siteFiles,
  tree,
} from './output-folder-case.js';

/**
 * The output folder belongs to its owner: a build refuses a folder that is not a cctrail report unless forced,
 * never removes or writes through what it did not write (files, a git work tree, links out of the folder, paths
 * a hostile record names), and a rebuild removes exactly the pages its site no longer has.
 */

describe('inspectOutputFolder', () => {
  it('tells missing, empty, foreign and report folders apart', async () => {
    const c = fixture();
    expect(inspectOutputFolder(c.outDir, c.cacheDir)).toEqual({ kind: 'missing', entries: [] });
    // The default cache folder inside the output folder is cctrail's own.
    put(c.outDir, '.cctrail-cache/parts/x', 'cache');
    expect(inspectOutputFolder(c.outDir)).toEqual({ kind: 'empty', entries: [] });
    mkdirSync(join(c.outDir, '.git'));
    expect(inspectOutputFolder(c.outDir)).toEqual({ kind: 'foreign', entries: ['.git/'] });
    rmSync(join(c.outDir, '.git'), { recursive: true });
    await build(c);
    put(c.outDir, 'CNAME', 'example.org');
    expect(inspectOutputFolder(c.outDir, c.cacheDir)).toEqual({ kind: 'report', entries: ['CNAME'] });
  });
});

describe('a folder that is not a cctrail report', () => {
  it('is refused untouched, and with force gets the site beside its files, byte for byte', async () => {
    const c = fixture();
    put(c.outDir, 'notes.md', '# Notes\n');
    put(c.outDir, 'CNAME', 'example.org\n');
    put(c.outDir, 'img/a.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const before = tree(c.outDir);
    const error = await refusal(c);
    expect(error.code).toBe('output-not-a-report');
    expect(error.message).toContain(`${c.outDir} is not a cctrail report: it holds CNAME, img/, notes.md.`);
    expect(error.message).toContain('--force');
    expect(tree(c.outDir)).toEqual(before);
    expect(existsSync(c.cacheDir)).toBe(false);

    await build(c, { force: true });
    expect(pick(tree(c.outDir), Object.keys(before))).toEqual(before);
    const record = recordOf(c.outDir);
    expect(record).toMatchObject({ generator: 'cctrail', schemaVersion: 1 });
    expect(record.files).toEqual(siteFiles(c.outDir, before));
    // For GitHub Pages' branch publishing, which would drop `_cctrail/` through Jekyll.
    expect(readFileSync(join(c.outDir, '.nojekyll'), 'utf8')).toBe('');
    expect(record.files).toEqual(
      expect.arrayContaining([
        '.nojekyll',
        'index.html',
        '_cctrail/mermaid.min.js',
        '_cctrail/search-index.js',
      ]),
    );

    // Now a report: a rebuild needs no force, and the pages that leave go alone.
    dropSession(c, 'beta');
    await build(c);
    expect(pick(tree(c.outDir), Object.keys(before))).toEqual(before);
    expect(siteFiles(c.outDir, before).some((f) => f.includes('/beta/'))).toBe(false);
  });

  it('names the site’s own names first, as files it would overwrite, and counts the rest', async () => {
    const c = fixture();
    await build(c);
    const names = [...new Set(recordOf(c.outDir).files.map((f) => f.split('/')[0] as string))];
    const other = fixture();
    for (const name of names) put(other.outDir, name.includes('.') ? name : `${name}/x`, 'theirs');
    for (let i = 0; i < 12; i++) put(other.outDir, `note-${i}.md`, 'theirs');
    const error = await refusal(other);
    for (const name of names)
      expect(error.message).toContain(`${name.includes('.') ? name : `${name}/`} (would be overwritten)`);
    const listed = names.length + 12;
    expect(error.message).toContain(` and ${listed - 10} more.`);
  });

  it('leaves a git work tree as it was', async () => {
    const c = fixture();
    mkdirSync(c.outDir, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', c.outDir, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
        encoding: 'utf8',
      });
    git('init', '-q');
    put(c.outDir, 'README.md', '# repo\n');
    git('add', 'README.md');
    git('commit', '-qm', 'init');
    const before = tree(c.outDir);
    expect(Object.keys(before).filter((k) => k.startsWith('.git/')).length).toBeGreaterThan(5);
    expect((await refusal(c)).entries).toEqual(['.git/', 'README.md']);
    expect(tree(c.outDir)).toEqual(before);

    await build(c, { force: true });
    expect(pick(tree(c.outDir), Object.keys(before))).toEqual(before);
    // git sees the report as new files, and nothing of its own deleted or changed.
    const status = git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);
    expect(status.length).toBeGreaterThan(0);
    expect(status.filter((line) => !line.startsWith('?? '))).toEqual([]);
  });

  it('never writes or removes through a link, even when its record says so', async () => {
    const c = fixture();
    const outside = join(c.root, 'outside');
    put(outside, 'keep.txt', 'outside');
    put(outside, 'assets/theirs.js', 'outside');
    put(c.root, 'outside.txt', 'outside');
    mkdirSync(c.outDir, { recursive: true });
    symlinkSync(outside, join(c.outDir, 'link'));
    symlinkSync(join(outside, 'keep.txt'), join(c.outDir, 'file-link'));
    // Links where the site writes a folder and a file.
    symlinkSync(join(outside, 'assets'), join(c.outDir, '_cctrail'));
    symlinkSync(join(outside, 'keep.txt'), join(c.outDir, 'index.html'));
    const outsideNow = () => ({
      ...tree(outside),
      '../outside.txt': readFileSync(join(c.root, 'outside.txt'), 'utf8'),
    });
    const outsideBefore = outsideNow();
    expect((await refusal(c)).entries).toEqual(['_cctrail', 'file-link', 'index.html', 'link']);

    await build(c, { force: true });
    const unchanged = () => expect(outsideNow()).toEqual(outsideBefore);
    unchanged();
    expect(lstatSync(join(c.outDir, '_cctrail')).isDirectory()).toBe(true);
    expect(readFileSync(join(c.outDir, 'index.html'), 'utf8')).toContain('<html');

    // A hostile record: paths through links, out of the folder, absolute.
    const hostile = [
      'link/keep.txt',
      'link/assets/theirs.js',
      'link',
      'file-link',
      '../outside.txt',
      'link/../../outside.txt',
      join(c.root, 'outside.txt'),
      join(outside, 'keep.txt'),
    ];
    const record = recordOf(c.outDir);
    writeFileSync(
      join(c.outDir, RECORD),
      JSON.stringify({ ...record, files: [...record.files, ...hostile] }),
    );
    await build(c);
    unchanged();
    expect(readlinkSync(join(c.outDir, 'link'))).toBe(outside);
    expect(readlinkSync(join(c.outDir, 'file-link'))).toBe(join(outside, 'keep.txt'));
    expect(recordOf(c.outDir).files).toEqual(siteFiles(c.outDir));
  });
});

/** The files of the search index that hold a session's entries (one session a file, see `search-files.ts`). */
function searchEntriesOf(outDir: string, files: readonly string[], session: string): string[] {
  return files.filter(
    (f) =>
      /^_cctrail\/search\/e[0-9a-f]+-\d+\.js$/.test(f) &&
      readFileSync(join(outDir, f), 'utf8').includes(`/${session}/`),
  );
}

describe('a rebuild', () => {
  it('removes exactly the pages of a session that left the archive', async () => {
    const c = fixture();
    await build(c);
    const first = siteFiles(c.outDir);
    expect(recordOf(c.outDir).files).toEqual(first);
    const beta = [
      ...first.filter((f) => /^s\/[^/]+\/beta\//.test(f)),
      ...searchEntriesOf(c.outDir, first, 'beta'),
    ];
    expect(beta.length).toBeGreaterThan(searchEntriesOf(c.outDir, first, 'beta').length);
    expect(searchEntriesOf(c.outDir, first, 'beta').length).toBeGreaterThan(0);
    put(c.outDir, 'CNAME', 'example.org\n');
    dropSession(c, 'beta');
    const logged: string[] = [];
    await build(c, { log: (m) => logged.push(m) });
    // The other session's pages are kept, not written again, and still the report's.
    expect(logged).toContain('report: pages of 0 changed sessions rendered, 1 kept');
    const second = siteFiles(c.outDir, { CNAME: '' });
    expect(first.filter((f) => !second.includes(f)).sort()).toEqual(beta.sort());
    expect(readFileSync(join(c.outDir, 'CNAME'), 'utf8')).toBe('example.org\n');
    expect(recordOf(c.outDir).files).toEqual(second);
  });

  it('takes a report built before the record from its cache, the pages it kept included', async () => {
    const c = fixture(['alpha', 'beta', 'gamma']);
    await build(c);
    // Beta changes: the next build renders its pages and keeps alpha's and gamma's.
    const beta = linearSession('beta', 8);
    writeFileSync(join(c.dataDir, 'shop', 'beta.json'), JSON.stringify(beta));
    const indexFile = join(c.dataDir, 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as ArchiveIndex;
    for (const p of index.projects)
      p.sessions = p.sessions.map((s) => (s.id === 'beta' ? summaryOf(beta, s.file) : s));
    writeFileSync(indexFile, JSON.stringify(index));
    const logged: string[] = [];
    await build(c, { log: (m) => logged.push(m) });
    expect(logged).toContain('report: pages of 1 changed sessions rendered, 2 kept');
    const before = siteFiles(c.outDir);
    const alphaPages = before.filter((f) => /^s\/[^/]+\/alpha\//.test(f));
    const alpha = [...alphaPages, ...searchEntriesOf(c.outDir, before, 'alpha')];
    expect(alphaPages.length).toBeGreaterThan(0);
    // What an older build left: no record nor `.nojekyll`, and the state of the files it assembled, without the
    // pages it kept.
    const assembled = Object.keys(JSON.parse(readFileSync(join(c.cacheDir, 'pages.json'), 'utf8')));
    expect(assembled.filter((f) => alphaPages.includes(f))).toEqual([]);
    rmSync(join(c.outDir, RECORD));
    rmSync(join(c.outDir, '.nojekyll'));
    put(c.outDir, 'notes.md', 'mine');
    expect(inspectOutputFolder(c.outDir, c.cacheDir)).toEqual({ kind: 'report', entries: ['notes.md'] });
    expect(inspectOutputFolder(c.outDir, join(c.root, 'other-cache')).kind).toBe('foreign');

    dropSession(c, 'alpha');
    await build(c);
    const after = siteFiles(c.outDir, { 'notes.md': '' });
    expect(before.filter((f) => !after.includes(f)).sort()).toEqual(alpha.sort());
    expect(readFileSync(join(c.outDir, 'notes.md'), 'utf8')).toBe('mine');
    expect(recordOf(c.outDir).files).toEqual(after);
  });
});
