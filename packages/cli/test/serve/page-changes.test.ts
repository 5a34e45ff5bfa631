import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { injectLive } from '../../src/serve/inject-live.js';
import { changedPages, fingerprintPages, PageActivity } from '../../src/serve/page-changes.js';

const root = mkdtempSync(join(tmpdir(), 'cctrail-pages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }), 0);
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('fingerprintPages and changedPages', () => {
  it('names the pages whose bytes changed and the new ones, not the rewritten ones', () => {
    write('index.html', 'home');
    write('s/app/1/index.html', 'one');
    write('s/app/2/index.html', 'two');
    write('404.html', 'missing');
    write('_cctrail/style.css', 'p{}');
    write('.cache/old.html', 'hidden');
    const before = fingerprintPages(root);
    expect([...before.keys()].sort()).toEqual(['/', '/404.html', '/s/app/1/', '/s/app/2/']);
    write('s/app/1/index.html', 'one');
    write('s/app/2/index.html', 'two, longer');
    write('s/app/3/index.html', 'three');
    write('_cctrail/style.css', 'p{color:red}');
    const after = fingerprintPages(root, before);
    expect(changedPages(before, after)).toEqual(['/s/app/2/', '/s/app/3/']);
    // A page kept as it was is not read again: its fingerprint is the same object.
    expect(after.get('/')).toBe(before.get('/'));
  });
});

describe('PageActivity', () => {
  it('counts session pages as live for a while after they changed, newest first', () => {
    const activity = new PageActivity(1000);
    activity.note(['/', '/s/a/1/', '/agents/'], 10_000);
    activity.note(['/s/a/2/'], 10_500);
    expect(activity.live(10_900)).toEqual(['/s/a/2/', '/s/a/1/']);
    expect(activity.live(11_200)).toEqual(['/s/a/2/']);
    expect(activity.live(12_000)).toEqual([]);
  });
});

describe('injectLive', () => {
  it('adds the script before the end of the body and lets the page connect to its server only', () => {
    const page = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'none'; img-src 'self'"></head><body><p>x</p></body></html>`;
    expect(injectLive(page)).toBe(
      `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; connect-src 'self'"></head><body><p>x</p><script src="/_cctrail/live.js"></script></body></html>`,
    );
  });

  it('adds connect-src to a policy without one, and the script to a page without a body tag', () => {
    const page = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">text`;
    expect(injectLive(page)).toBe(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'">text<script src="/_cctrail/live.js"></script>`,
    );
  });
});
