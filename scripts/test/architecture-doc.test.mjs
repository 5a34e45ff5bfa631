// ARCHITECTURE.md's walk, folders and glossary name source files by path; each named path must be a file of the
// repository (a path is found when a tracked file is it or ends with it, as `cli/src/archive/keep.ts` or
// `build/manifest.ts`). A module renamed or moved without the page following it fails here.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The paths of source files a Markdown text names in code spans (`a/b.ts`), patterns (`NN-…`, `<key>`) left out. */
function namedPaths(markdown) {
  const paths = new Set();
  for (const m of markdown.matchAll(/`([^`\s]+)`/g)) {
    const path = m[1].replace(/[(),:]+$/, '');
    if (/^[\w@.\-/]+\.(ts|mjs|cjs|json|astro|css)$/.test(path) && path.includes('/') && !/\bNN\b/.test(path))
      paths.add(path);
  }
  return [...paths];
}

test('every source path ARCHITECTURE.md names exists', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const named = namedPaths(readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8'));
  expect(named.length).toBeGreaterThan(50);
  const missing = named.filter((path) => !files.some((f) => f === path || f.endsWith(`/${path}`)));
  expect(missing).toEqual([]);
});

test('a path that no file has is found missing', () => {
  expect(namedPaths('see `cli/src/archive/keep.ts` and `build/gone.ts`, not `NN-x.css`')).toEqual([
    'cli/src/archive/keep.ts',
    'build/gone.ts',
  ]);
});
