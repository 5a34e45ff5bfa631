// Browser code is typed, and `pnpm lint` fails when it is not: the rules of `check-browser.mjs` (run by
// `check-arch.mjs`, part of `pnpm lint`) on small trees laid out like the repository, and a package's
// `typecheck` script (which `pnpm lint` runs through turbo) failing on a type error in a page script.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { browserViolations } from '../check-browser.mjs';

const REPOSITORY = resolve(import.meta.dirname, '..', '..');
const made = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 0);

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022', 'DOM'], types: [] },
  include: ['.'],
});

/** A clean tree: an app whose page script is TypeScript in `src/browser/`, checked by its `typecheck`. */
const CLEAN = {
  '.gitignore': 'node_modules/\ndist/\napps/report/site/public/_cctrail/*.js\n',
  'apps/report/package.json': JSON.stringify({
    name: '@cctrail/report',
    scripts: { typecheck: 'tsc -p tsconfig.json --noEmit && tsc -p src/browser/tsconfig.json' },
  }),
  'apps/report/src/browser/tsconfig.json': TSCONFIG,
  'apps/report/src/browser/app.ts': 'export const title: string = document.title;\n',
  'apps/report/site/public/_cctrail/app.js': '(() => {})();\n',
  'apps/report/site/public/favicon.svg': '<svg/>\n',
  'apps/report/src/browser/node_modules/x/index.js': 'module.exports = 1;\n',
};

/** Writes a tree of files in a new temporary folder, a git checkout unless told. */
function writeTree(files, git = true) {
  const root = mkdtempSync(join(tmpdir(), 'cctrail-browser-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  if (git) execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/** Runs a package's `typecheck` script as `pnpm lint` does (the repository's tools on the PATH). */
function typecheck(packageFolder, script) {
  return spawnSync('sh', ['-c', script], {
    cwd: packageFolder,
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${join(REPOSITORY, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`,
    },
  });
}

describe('the rules of browser code', () => {
  test('hold on a tree whose page scripts are TypeScript, compiled into ignored files', () => {
    expect(browserViolations(writeTree(CLEAN))).toEqual([]);
  });

  test('hold on the repository itself', () => {
    expect(browserViolations(REPOSITORY)).toEqual([]);
  });

  test('fail on a hand-written .js page script in site/public or in a browser folder', () => {
    const root = writeTree({
      ...CLEAN,
      'apps/report/site/public/_cctrail/extra.js': 'window.extra = 1;\n',
      'apps/report/site/public/old.mjs': 'export {};\n',
      'packages/cli/package.json': JSON.stringify({
        scripts: { typecheck: 'tsc -p src/serve/browser/tsconfig.json' },
      }),
      'packages/cli/src/serve/browser/tsconfig.json': TSCONFIG,
      'packages/cli/src/serve/browser/live.js': 'window.live = 1;\n',
    });
    expect(browserViolations(root)).toEqual([
      {
        rule: 'browser-script-typed',
        text: join('apps/report/site/public/old.mjs') + ' is a hand-written page script',
      },
      {
        rule: 'browser-script-typed',
        text: join('packages/cli/src/serve/browser/live.js') + ' is a hand-written page script',
      },
    ]);
  });

  test('outside a git checkout, count every file but those of dependencies and tools', () => {
    const root = writeTree(CLEAN, false);
    expect(browserViolations(root).map(({ text }) => text)).toEqual([
      `${join('apps/report/site/public/_cctrail/app.js')} is a hand-written page script`,
    ]);
  });

  test('fail on browser code that the typecheck does not check against the DOM', () => {
    const root = writeTree({
      ...CLEAN,
      'apps/report/package.json': JSON.stringify({ scripts: { typecheck: 'tsc -p tsconfig.json --noEmit' } }),
      'packages/cli/package.json': JSON.stringify({
        scripts: { typecheck: 'tsc -p src/serve/browser/tsconfig.json' },
      }),
      'packages/cli/src/serve/browser/tsconfig.json': JSON.stringify({
        compilerOptions: { lib: ['ES2022'] },
      }),
      'packages/cli/src/serve/browser/live.ts': 'export {};\n',
      'packages/core/src/browser/page.ts': 'export {};\n',
    });
    expect(browserViolations(root)).toEqual([
      {
        rule: 'browser-code-checked',
        text: `${join('packages/cli/src/serve/browser/tsconfig.json')} is missing or lacks "DOM"`,
      },
      {
        rule: 'browser-code-checked',
        text: `${join('packages/core/src/browser/tsconfig.json')} is missing or lacks "DOM"`,
      },
      {
        rule: 'browser-code-checked',
        text: `the typecheck script of ${join('apps/report')} does not run tsc -p src/browser/tsconfig.json`,
      },
    ]);
  });

  test("a type error in a page script fails the package's typecheck, which the rules require", () => {
    const script = 'tsc -p src/browser/tsconfig.json';
    const clean = writeTree({
      ...CLEAN,
      'apps/report/package.json': JSON.stringify({ scripts: { typecheck: script } }),
    });
    expect(browserViolations(clean)).toEqual([]);
    const passing = typecheck(join(clean, 'apps/report'), script);
    expect([passing.status, passing.stdout]).toEqual([0, '']);
    writeFileSync(
      join(clean, 'apps/report/src/browser/app.ts'),
      'export const title: number = document.title;\n',
    );
    const failing = typecheck(join(clean, 'apps/report'), script);
    expect(failing.status).not.toBe(0);
    expect(failing.stdout).toMatch(
      /app\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  });
});
