import { linkSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectOutputFolder } from '../src/build/output-folder.js';
import { SiteWriter } from '../src/build/site-writer.js';
import { tempFolder } from './helpers/temp.js';

/** The writer of the output folder: what a build stopped half-way leaves, and links it never writes through. */

const tmp = tempFolder('cctrail-site-writer-');

describe('SiteWriter', () => {
  it('leaves a folder the next build takes as its own when the build stops before its end', () => {
    const out = join(tmp, 'stopped');
    mkdirSync(out);
    const site = new SiteWriter(out);
    site.begin(['s/old/index.html'], ['index.html', 's/new/index.html']);
    site.write('index.html', '<html>half');
    // No commit: the process was stopped here.
    expect(inspectOutputFolder(out, false)).toEqual({ kind: 'report', entries: [] });
    const record = JSON.parse(readFileSync(join(out, '.cctrail-report.json'), 'utf8'));
    expect(record.files).toEqual(['index.html', 's/new/index.html', 's/old/index.html']);
  });

  it('replaces a link where it writes, and leaves the link’s target as it was', () => {
    const out = join(tmp, 'links');
    const outside = join(tmp, 'outside');
    mkdirSync(out);
    mkdirSync(outside);
    writeFileSync(join(outside, 'page.html'), 'theirs');
    symlinkSync(outside, join(out, 's'));
    symlinkSync(join(outside, 'page.html'), join(out, 'index.html'));
    const site = new SiteWriter(out);
    site.write('s/page.html', 'ours');
    site.write('index.html', 'ours');
    expect(readFileSync(join(outside, 'page.html'), 'utf8')).toBe('theirs');
    expect(lstatSync(join(out, 's')).isDirectory()).toBe(true);
    expect(lstatSync(join(out, 'index.html')).isFile()).toBe(true);
    // A path through a link, out of the folder or absolute is not the writer's to remove.
    symlinkSync(outside, join(out, 'link'));
    expect(site.removeStale(['link/page.html', '../outside/page.html', join(outside, 'page.html')])).toBe(0);
    expect(readFileSync(join(outside, 'page.html'), 'utf8')).toBe('theirs');
  });

  it('writes over its own files exactly, shorter or longer, and never into another name of a file', () => {
    const out = join(tmp, 'over');
    const backup = join(tmp, 'backup');
    mkdirSync(out);
    mkdirSync(backup);
    const site = new SiteWriter(out);
    site.write('a.js', 'a longer first version');
    site.write('a.js', 'short');
    expect(readFileSync(join(out, 'a.js'), 'utf8')).toBe('short');
    site.write('a.js', 'é'.repeat(70_000));
    expect(readFileSync(join(out, 'a.js'), 'utf8')).toBe('é'.repeat(70_000));
    // A backup of the site made with hard links (`cp -al`) shares the files' bytes: a new build must not change it.
    site.write('b.html', 'first build');
    linkSync(join(out, 'b.html'), join(backup, 'b.html'));
    site.write('b.html', 'second build');
    expect(readFileSync(join(out, 'b.html'), 'utf8')).toBe('second build');
    expect(readFileSync(join(backup, 'b.html'), 'utf8')).toBe('first build');
    expect(statSync(join(out, 'b.html')).nlink).toBe(1);
  });

  it('writes in libuv’s pool (`writeSoon`) as it writes in this thread: over its own files, never through a link', async () => {
    const out = join(tmp, 'soon');
    const outside = join(tmp, 'outside-soon');
    const backup = join(tmp, 'backup-soon');
    for (const dir of [out, outside, backup]) mkdirSync(dir);
    writeFileSync(join(outside, 'page.html'), 'theirs');
    symlinkSync(outside, join(out, 's'));
    const site = new SiteWriter(out);
    const bytes = (text: string) => new TextEncoder().encode(text);
    await site.writeSoon('s/page.html', bytes('a longer first version'));
    expect(readFileSync(join(outside, 'page.html'), 'utf8')).toBe('theirs');
    expect(lstatSync(join(out, 's')).isDirectory()).toBe(true);
    await site.writeSoon('s/page.html', bytes('short'));
    expect(readFileSync(join(out, 's/page.html'), 'utf8')).toBe('short');
    linkSync(join(out, 's/page.html'), join(backup, 'page.html'));
    await site.writeSoon('s/page.html', bytes('é'.repeat(70_000)));
    expect(readFileSync(join(out, 's/page.html'), 'utf8')).toBe('é'.repeat(70_000));
    expect(readFileSync(join(backup, 'page.html'), 'utf8')).toBe('short');
    expect(site.hasFile('s/page.html')).toBe(true);
  });

  it('knows which files are there after it wrote or removed some in a folder it has looked at', () => {
    const out = join(tmp, 'listed');
    mkdirSync(join(out, 'search'), { recursive: true });
    writeFileSync(join(out, 'search', 'a.js'), 'a');
    writeFileSync(join(out, 'search', 'b.js'), 'b');
    symlinkSync(join(out, 'search', 'a.js'), join(out, 'search', 'link.js'));
    const site = new SiteWriter(out);
    expect(site.hasFile('search/a.js')).toBe(true);
    // A link is no file of the site's, and a name never written is not there.
    expect(site.hasFile('search/link.js')).toBe(false);
    expect(site.hasFile('search/c.js')).toBe(false);
    site.write('search/c.js', 'c');
    site.write('search/link.js', 'ours');
    expect(site.hasFile('search/c.js')).toBe(true);
    expect(site.hasFile('search/link.js')).toBe(true);
    site.keep('search/a.js');
    expect(site.removeStale(['search/b.js'])).toBe(1);
    expect(site.hasFile('search/b.js')).toBe(false);
    expect(site.hasFile('search/a.js')).toBe(true);
  });
});
