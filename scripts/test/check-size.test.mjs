// The size rule counts hand-written files only: in a git checkout, a file that git ignores (what a build
// writes, such as the report's page scripts compiled into `site/public/_cctrail/`) is not counted; outside
// one, the files of `node_modules/`, `dist/` and `.astro/` are not. Tests are hand-written code: a test file (or
// a test's helper) over the limit is counted; a snapshot is not code. (`architecture.test.mjs` proves the rule
// fails on each kind of file it covers.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { oversizedFiles } from '../check-size.mjs';

const made = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 0);

const LONG = 'window.x = 1;\n'.repeat(301);

/** A tree with a long built page script, a long hand-written one, and long files of tools. */
function tree() {
  const root = mkdtempSync(join(tmpdir(), 'cctrail-size-'));
  made.push(root);
  const files = {
    '.gitignore': 'node_modules/\ndist/\napps/report/site/public/_cctrail/*.js\n',
    'apps/report/site/public/_cctrail/app.js': LONG,
    'apps/report/site/public/extra.js': LONG,
    'apps/report/site/node_modules/x/index.js': LONG,
    'apps/report/src/dist/built.js': LONG,
    'apps/report/src/short.ts': 'export const x = 1;\n',
    'packages/cli/test/serve.e2e.test.ts': LONG,
    'packages/cli/test/fixtures/long.ts': LONG,
    'packages/cli/test/__snapshots__/long.test.ts.snap': LONG,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('the size rule', () => {
  test('in a git checkout, counts every file git does not ignore', () => {
    const root = tree();
    execFileSync('git', ['init', '-q'], { cwd: root });
    expect(oversizedFiles(root).map(({ file }) => file)).toEqual([
      join('apps/report/site/public/extra.js'),
      join('packages/cli/test/fixtures/long.ts'),
      join('packages/cli/test/serve.e2e.test.ts'),
    ]);
  });

  test('outside one, counts every file but those of dependencies and tools', () => {
    const root = tree();
    expect(oversizedFiles(root).map(({ file }) => file)).toEqual([
      join('apps/report/site/public/_cctrail/app.js'),
      join('apps/report/site/public/extra.js'),
      join('packages/cli/test/fixtures/long.ts'),
      join('packages/cli/test/serve.e2e.test.ts'),
    ]);
  });
});
