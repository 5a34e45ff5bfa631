// The architecture check fails on a forbidden import and passes on a clean tree: `scripts/check-arch.mjs` (what
// `pnpm lint:arch` runs) on a small tree laid out like the repository's target layout of core, report and CLI,
// then on the same tree with one forbidden import of each rule added.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLEAN } from './architecture-tree.mjs';

const CHECK = resolve(import.meta.dirname, '..', 'check-arch.mjs');
const made = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 0);

/** Writes a tree of files (`'-> path'` makes a symbolic link to that folder of the tree) in a new temporary folder. */
function writeTree(files) {
  const root = mkdtempSync(join(tmpdir(), 'cctrail-arch-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    const file = join(root, name);
    mkdirSync(dirname(file), { recursive: true });
    if (text.startsWith('-> ')) symlinkSync(join(root, text.slice(3)), file, 'dir');
    else writeFileSync(file, text);
  }
  return root;
}

/** Runs the architecture check on a tree; resolves to its exit code and its whole output. */
function check(root) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CHECK, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status, output }));
  });
}

/** Core's main entry with two forbidden exports, shared by the two cases it breaks (one tree holds every case). */
const BROKEN_MAIN_ENTRY = [
  "export { session } from './session.js';",
  "export { stats } from './graph/stats.js';",
  "export { tally } from './archive/tally.js';",
  '',
].join('\n');

// One forbidden thing each, all in one tree so that the check runs once: the files added, the rule that must
// catch them, and the module its error must name.
const CASES = [
  {
    rule: 'core-imports-nothing-of-ours',
    what: 'core imports the report',
    from: 'packages/core/src/graph/report.ts',
    files: {
      'packages/core/src/graph/report.ts':
        "import { build } from '../../../../apps/report/src/index.js';\nexport const report = build;\n",
    },
  },
  {
    rule: 'report-views-never-build',
    what: 'a view imports the build',
    from: 'apps/report/src/views/chart.ts',
    files: {
      'apps/report/src/views/chart.ts':
        "import { build } from '../build/build.js';\nexport const chart = build;\n",
    },
  },
  {
    rule: 'no-circular',
    what: 'two modules import each other',
    from: 'packages/cli/src/',
    files: {
      'packages/cli/src/jobs.ts': "import { job } from './export-job.js';\nexport const jobs = () => job;\n",
      'packages/cli/src/export-job.ts': "import { jobs } from './jobs.js';\nexport const job = () => jobs;\n",
    },
  },
  {
    rule: 'cli-imports-core-and-report-index',
    what: 'the CLI imports a subpath of the report',
    from: 'packages/cli/src/parts-job.ts',
    files: {
      'packages/cli/src/parts-job.ts':
        "import { parts } from '@cctrail/report/parts';\nexport const job = parts;\n",
    },
  },
  {
    rule: 'report-imports-core-only',
    what: 'the report imports the CLI',
    from: 'apps/report/src/build/cli.ts',
    files: {
      'apps/report/src/build/cli.ts':
        "import { main } from '../../../../packages/cli/src/main.js';\nexport const cli = main;\n",
    },
  },
  {
    rule: 'core-stage-order-read',
    what: 'read/ imports a later stage',
    from: 'packages/core/src/read/records.ts',
    files: {
      'packages/core/src/read/records.ts':
        "import { branches } from '../analyses/branches.js';\nexport const records = branches;\n",
    },
  },
  {
    rule: 'core-stage-order-graph',
    what: 'graph/ imports a later stage',
    from: 'packages/core/src/graph/usage.ts',
    files: {
      'packages/core/src/graph/usage.ts':
        "import { archive } from '../archive/archive.js';\nexport const usage = archive;\n",
    },
  },
  {
    rule: 'core-lean-users',
    what: 'normalize/ uses the structure-only strategy',
    from: 'packages/core/src/normalize/shrink.ts',
    files: {
      'packages/core/src/normalize/shrink.ts':
        "import { lean } from '../lean/lean.js';\nexport const shrink = lean;\n",
    },
  },
  {
    rule: 'core-main-entry-without-node',
    what: "a module of core's main entry reaches src/node/",
    from: 'packages/core/src/index.ts',
    files: {
      'packages/core/src/index.ts': BROKEN_MAIN_ENTRY,
      'packages/core/src/graph/stats.ts':
        "import { read } from '../node/index.js';\nexport const stats = read;\n",
    },
  },
  {
    rule: 'core-main-entry-without-archive',
    what: "core's main entry reaches src/archive/ (what spans sessions is @cctrail/core/archive)",
    from: 'packages/core/src/index.ts',
    files: {
      'packages/core/src/index.ts': BROKEN_MAIN_ENTRY,
      'packages/core/src/archive/tally.ts':
        "import { session } from '../session.js';\nexport const tally = session;\n",
    },
  },
  {
    rule: 'core-io-only-in-node',
    what: 'core reads files outside src/node/',
    from: 'packages/core/src/read/files.ts',
    files: {
      'packages/core/src/read/files.ts':
        "import { readFile } from 'node:fs/promises';\nexport const files = readFile;\n",
    },
  },
  {
    rule: 'report-site-imports-views-only',
    what: 'a component imports the build',
    from: 'apps/report/site/src/components/Other.astro',
    files: {
      'apps/report/site/src/components/Other.astro':
        "---\nimport { build } from '../../../src/build/build.ts';\n---\n<p>{build}</p>\n",
    },
  },
  {
    rule: 'source-file-size',
    what: 'a source file is over 300 lines',
    from: 'apps/report/src/views/long.ts',
    files: { 'apps/report/src/views/long.ts': 'export const long = 1;\n'.repeat(301) },
  },
  {
    rule: 'core-export-unused',
    what: 'core exports a value no other package imports',
    from: 'packages/core/src/archive/index.ts',
    files: {
      'packages/core/src/archive/index.ts':
        "export { archive } from './archive.js';\nexport const unused = 1;\n",
    },
  },
  {
    rule: 'source-file-size',
    what: 'a page script of the site is over 300 lines',
    from: 'apps/report/site/public/_cctrail/long.js',
    files: { 'apps/report/site/public/_cctrail/long.js': 'window.long = 1;\n'.repeat(301) },
  },
  {
    rule: 'source-file-size',
    what: 'a stylesheet is over 300 lines',
    from: 'apps/report/src/browser/styles/long.css',
    files: { 'apps/report/src/browser/styles/long.css': 'p {\n  margin: 0;\n}\n'.repeat(101) },
  },
  {
    rule: 'source-file-size',
    what: 'a script of the repository is over 300 lines',
    from: 'scripts/long.mjs',
    files: { 'scripts/long.mjs': 'console.log(1);\n'.repeat(301) },
  },
  {
    rule: 'source-file-size',
    what: "a package's build script is over 300 lines",
    from: 'packages/core/scripts/long.mjs',
    files: { 'packages/core/scripts/long.mjs': 'console.log(1);\n'.repeat(301) },
  },
  {
    rule: 'browser-script-typed',
    what: 'a page script is hand-written JavaScript',
    from: 'apps/report/site/public/_cctrail/extra.js',
    files: { 'apps/report/site/public/_cctrail/extra.js': 'window.extra = 1;\n' },
  },
  {
    rule: 'browser-code-checked',
    what: 'browser code has no DOM tsconfig that the typecheck runs',
    from: 'packages/cli/src/serve/browser/tsconfig.json',
    files: { 'packages/cli/src/serve/browser/live.ts': 'export {};\n' },
  },
];

describe('the architecture check', () => {
  const runs = {};
  beforeAll(async () => {
    const broken = Object.assign({}, CLEAN, ...CASES.map((forbidden) => forbidden.files));
    [runs.clean, runs.broken] = await Promise.all([check(writeTree(CLEAN)), check(writeTree(broken))]);
  });

  test('passes on a clean tree of the target layout', () => {
    expect(runs.clean.output).toContain('the architecture rules hold');
    expect(runs.clean.status).toBe(0);
  });

  test('fails on a tree with forbidden imports', () => {
    expect(runs.broken.status).toBe(1);
  });

  test.each(CASES)('names $rule when $what', ({ rule, from }) => {
    expect(runs.broken.output).toContain(`error ${rule}: ${from}`);
  });

  test('names nothing else', () => {
    const named = runs.broken.output.match(/error [a-z-]+:/g) ?? [];
    expect(new Set(named)).toEqual(new Set(CASES.map((forbidden) => `error ${forbidden.rule}:`)));
  });
});
