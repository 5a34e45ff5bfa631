import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentType, resolveRequest } from '../../src/serve/resolve-request.js';

// served/               outside/
//   index.html            secret.txt
//   s/app/1/index.html    folder/index.html
//   _cctrail/style.css
//   .cache/x.json
//   link-out.txt  -> ../outside/secret.txt
//   dir-out       -> ../outside/folder
//   link-in.css   -> _cctrail/style.css
const base = mkdtempSync(join(tmpdir(), 'cctrail-resolve-'));
afterAll(() => rmSync(base, { recursive: true, force: true }), 0);
const root = join(base, 'served');
for (const dir of ['s/app/1', '_cctrail', '.cache']) mkdirSync(join(root, dir), { recursive: true });
mkdirSync(join(base, 'outside', 'folder'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<p>home');
writeFileSync(join(root, 's/app/1/index.html'), '<p>session');
writeFileSync(join(root, '_cctrail/style.css'), 'p{}');
writeFileSync(join(root, '.cache/x.json'), '{}');
writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
writeFileSync(join(base, 'outside', 'folder', 'index.html'), '<p>outside');
symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link-out.txt'));
symlinkSync(join(base, 'outside', 'folder'), join(root, 'dir-out'));
symlinkSync(join(root, '_cctrail', 'style.css'), join(root, 'link-in.css'));
const real = realpathSync(root);
const resolve = (url: string) => resolveRequest(real, url);

describe('resolveRequest', () => {
  it('serves files, folder pages, and redirects a folder without its slash', () => {
    expect(resolve('/')).toEqual({
      kind: 'file',
      path: join(real, 'index.html'),
      type: 'text/html; charset=utf-8',
    });
    expect(resolve('/s/app/1/?q=1#x')).toMatchObject({
      kind: 'file',
      path: join(real, 's/app/1/index.html'),
    });
    expect(resolve('/s/app/1/index.html')).toMatchObject({ kind: 'file' });
    expect(resolve('/_cctrail/style.css')).toMatchObject({ kind: 'file', type: 'text/css; charset=utf-8' });
    expect(resolve('/s/app/1?q=1')).toEqual({ kind: 'redirect', location: '/s/app/1/?q=1' });
  });

  it('lists no folder and serves nothing that is missing', () => {
    expect(resolve('/s/')).toEqual({ kind: 'not-found' });
    expect(resolve('/s/app/')).toEqual({ kind: 'not-found' });
    expect(resolve('/nothing.html')).toEqual({ kind: 'not-found' });
    expect(resolve('/index.html/')).toEqual({ kind: 'not-found' });
  });

  it.each([
    '/../outside/secret.txt',
    '/s/../../outside/secret.txt',
    '/%2e%2e/outside/secret.txt',
    '/%2E%2E/%2e%2e/etc/passwd',
    '/s/%2e%2e%2f%2e%2e%2foutside/secret.txt',
    '/s%2f..%2f..%2foutside/secret.txt',
    '/..%5c..%5coutside/secret.txt',
    '/s\\..\\..\\outside\\secret.txt',
    '/./index.html',
    '//etc/passwd',
    '/%00index.html',
    '/%E0%A4%A',
    'index.html',
    'http://example.com/',
  ])('refuses %s', (url) => {
    expect(resolve(url)).toEqual({ kind: 'bad' });
  });

  it('hides dot-files and follows no symlink out of the folder', () => {
    expect(resolve('/.cache/x.json')).toEqual({ kind: 'not-found' });
    expect(resolve('/%2ecache/x.json')).toEqual({ kind: 'not-found' });
    expect(resolve('/link-out.txt')).toEqual({ kind: 'not-found' });
    expect(resolve('/dir-out/')).toEqual({ kind: 'not-found' });
    expect(resolve('/dir-out/index.html')).toEqual({ kind: 'not-found' });
    expect(resolve('/link-in.css')).toMatchObject({ kind: 'file', path: join(real, '_cctrail/style.css') });
  });

  it('types files by extension', () => {
    expect(contentType('a/b.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentType('x.svg')).toBe('image/svg+xml');
    expect(contentType('x.woff2')).toBe('font/woff2');
    expect(contentType('noext')).toBe('application/octet-stream');
  });
});
