// The packages as a user gets them: packed (`pnpm pack`), installed with plain npm into an empty folder (no
// workspace), and run with `npx cctrail` on the fixtures. Their output is the workspace build's, byte for byte; the
// install of cctrail holds that one package and nothing else; @cctrail/core installs and loads on its own; the GitHub Pages workflow's commands work; the report opens in
// chromium. Needs a built tree (`pnpm build`); run by `.ci/run` as `pnpm test:pack`.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZE_BUDGET } from './budget.mjs';
import { installedSize, npmInstall, packPackages, ROOT } from './pack.mjs';

const FIXTURES = join(ROOT, 'fixtures');
const CHROMIUM = '/usr/bin/chromium';
const WORKSPACE_BIN = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
const work = mkdtempSync(join(tmpdir(), 'cctrail-installed-'));
const app = join(work, 'app');
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

/** A script printing the names a module exports. */
const exportsOf = (specifier) =>
  `console.log(Object.keys(await import(${JSON.stringify(specifier)})).sort().join(' '))`;

/** Runs a command and collects its output; never rejects on a non-zero exit. */
function run(file, args, cwd, env = {}) {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd,
        env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
/** `npx cctrail …` in the installed folder (`--no`: never from the registry). */
const installed = (args, cwd = app) => run('npx', ['--no', '--', 'cctrail', ...args], cwd);
/** The workspace's own build, for comparison. */
const workspace = (args) =>
  run(process.execPath, [WORKSPACE_BIN, ...args], ROOT, {
    CCTRAIL_CACHE_DIR: join(work, 'cache-workspace'),
  });

/** Every file under a folder, relative, with its bytes. */
function tree(dir) {
  const files = {};
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop();
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) stack.push(path);
      else files[path] = readFileSync(join(dir, path)).toString('base64');
    }
  }
  return files;
}

let coreTarball = '';
beforeAll(async () => {
  const [core, cli] = packPackages(join(work, 'tarballs'));
  coreTarball = core ?? '';
  await npmInstall(app, [cli ?? '']);
});

describe('npm install of the packed cctrail', () => {
  it('is the one package, depending on none but those kept outside its bundle, within the size budget', () => {
    const { bytes, packages } = installedSize(join(app, 'node_modules'));
    const source = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8'));
    const external = Object.keys(source.dependencies ?? {}).filter((name) =>
      (source.bundle?.external ?? []).includes(name),
    );
    if (external.length === 0) expect(packages).toEqual(['cctrail']);
    expect(bytes).toBeLessThanOrEqual(SIZE_BUDGET);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'cctrail', 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(external.sort());
    expect(manifest.bundle).toBeUndefined();
  });

  it('ships no source maps and no declaration files but those of its entry point', () => {
    const files = Object.keys(tree(join(app, 'node_modules', 'cctrail')));
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    const types = files.filter((f) => f.endsWith('.d.ts'));
    expect(types).toContain('dist/bundle/index.d.ts');
    expect(types.every((f) => f.startsWith('dist/bundle/'))).toBe(true);
  });

  it('exports the same names as the workspace build', async () => {
    const mine = await run(process.execPath, ['--input-type=module', '-e', exportsOf('cctrail')], app);
    const built = pathToFileURL(join(ROOT, 'packages', 'cli', 'dist', 'index.js')).href;
    const theirs = await run(process.execPath, ['--input-type=module', '-e', exportsOf(built)], ROOT);
    expect(mine.code).toBe(0);
    expect(mine.stdout).toBe(theirs.stdout);
  });

  it('answers --version with the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8'));
    const result = await installed(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});

describe('npm install of the packed @cctrail/core, on its own', () => {
  it('loads both entry points', async () => {
    const dir = join(work, 'core-app');
    await npmInstall(dir, [coreTarball]);
    expect(installedSize(join(dir, 'node_modules')).packages).toEqual(['@cctrail/core']);
    const script =
      "const c = await import('@cctrail/core'); const n = await import('@cctrail/core/node'); console.log(typeof c.buildSession, typeof n.discover)";
    const result = await run(process.execPath, ['--input-type=module', '-e', script], dir);
    expect(result).toMatchObject({ code: 0, stdout: 'function function\n' });
  });
});

describe('npx cctrail on the fixtures gives what the workspace build gives', () => {
  it('report', async () => {
    const mine = await installed(['report', FIXTURES, '-o', join(work, 'site')]);
    expect(mine.stderr).not.toContain('internal error');
    expect(mine).toMatchObject({ code: 0, stdout: `${join(work, 'site', 'index.html')}\n` });
    const theirs = await workspace(['report', FIXTURES, '-o', join(work, 'site-workspace')]);
    expect(theirs.code).toBe(0);
    expect(tree(join(work, 'site'))).toEqual(tree(join(work, 'site-workspace')));
  });

  it('stats --json', async () => {
    const mine = await installed(['stats', FIXTURES, '--json']);
    expect(mine.code).toBe(0);
    expect(JSON.parse(mine.stdout).sessions.length).toBeGreaterThan(10);
    expect(mine.stdout).toBe((await workspace(['stats', FIXTURES, '--json'])).stdout);
  });

  it('export', async () => {
    const mine = await installed(['export', FIXTURES, '-o', join(work, 'archive')]);
    expect(mine.code).toBe(0);
    expect(existsSync(join(work, 'archive', 'index.json'))).toBe(true);
    await workspace(['export', FIXTURES, '-o', join(work, 'archive-workspace')]);
    expect(tree(join(work, 'archive'))).toEqual(tree(join(work, 'archive-workspace')));
  });
});

describe('docs/github-pages.yml', () => {
  const workflow = readFileSync(join(ROOT, 'docs', 'github-pages.yml'), 'utf8');
  /** The GitHub Actions expression of the repository's name, which the commands use for `--base`. */
  const REPOSITORY_NAME = ['${{', 'github.event.repository.name', '}}'].join(' ');

  it('checks out, builds with npx cctrail report --base, uploads the site and deploys it', () => {
    const uses = [...workflow.matchAll(/uses: ([\w/-]+)@/g)].map((m) => m[1]);
    expect(uses).toEqual(
      expect.arrayContaining(['actions/checkout', 'actions/upload-pages-artifact', 'actions/deploy-pages']),
    );
    expect(workflow).toMatch(
      /run: npx cctrail report .*--base \/\$\{\{ github\.event\.repository\.name \}\}\//,
    );
  });

  it('its commands build the site it uploads, in a checkout of an archive repository', async () => {
    // The checkout: the transcripts in claude-projects/, cctrail installed beside them (npx finds it there).
    cpSync(join(FIXTURES, 'multi-project'), join(app, 'claude-projects'), { recursive: true });
    const commands = [...workflow.matchAll(/^\s+run: (.+)$/gm)].map((m) =>
      (m[1] ?? '').replaceAll(REPOSITORY_NAME, 'my-archive'),
    );
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const result = await run('bash', ['-euo', 'pipefail', '-c', command], app);
      expect(result.stderr).not.toMatch(/cctrail: /);
      expect(result.code).toBe(0);
    }
    const uploaded = /upload-pages-artifact@v\d+\n\s+with:\n\s+path: (\S+)/.exec(workflow)?.[1] ?? '';
    const site = join(app, uploaded);
    expect(statSync(join(site, 'index.html')).isFile()).toBe(true);
    // Only the pages are published (with the record of the files the build wrote, and GitHub Pages'
    // `.nojekyll`): the report's cache stays outside the site.
    expect(readdirSync(site).sort()).toEqual([
      '.cctrail-report.json',
      '.nojekyll',
      '_cctrail',
      'agents',
      'index.html',
      's',
      'search',
    ]);
  });
});

describe.skipIf(!existsSync(CHROMIUM))('the installed CLI’s report in chromium', () => {
  it('shows the index and draws a session’s flowchart from file://, with no outside request', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const problems = [];
    try {
      const page = await browser.newPage();
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('request', (r) => {
        if (!r.url().startsWith('file://') && !r.url().startsWith('data:'))
          problems.push(`request ${r.url()}`);
      });
      const site = join(work, 'site');
      await page.goto(pathToFileURL(join(site, 'index.html')).href);
      expect(await page.locator('table.data tbody tr').count()).toBeGreaterThan(10);
      const project = readdirSync(join(site, 's')).find((d) => d.includes('compaction')) ?? '';
      const session = readdirSync(join(site, 's', project))[0] ?? '';
      await page.goto(pathToFileURL(join(site, 's', project, session, 'index.html')).href);
      await page.waitForSelector('[data-graph] svg', { timeout: 30_000 });
      expect(await page.locator('svg.timeline').count()).toBe(1);
    } finally {
      await browser.close();
    }
    expect(problems).toEqual([]);
  });
});

describe('docs/archive-workflow.yml', () => {
  const workflow = readFileSync(join(ROOT, 'docs', 'archive-workflow.yml'), 'utf8');

  it('its export command archives the checkout, and a second run over fewer transcripts keeps every session', async () => {
    const checkout = join(work, 'archive-checkout');
    cpSync(join(FIXTURES, 'multi-project'), join(checkout, 'claude-projects'), { recursive: true });
    cpSync(join(app, 'node_modules'), join(checkout, 'node_modules'), { recursive: true });
    const commands = [...workflow.matchAll(/^\s+run: (.*cctrail.+)$/gm)].map((m) => m[1] ?? '');
    expect(commands).toEqual(['npx --yes cctrail export claude-projects -o archive']);
    const count = () =>
      JSON.parse(readFileSync(join(checkout, 'archive', 'index.json'), 'utf8')).projects.reduce(
        (n, p) => n + p.sessions.length,
        0,
      );
    const first = await run('bash', ['-euo', 'pipefail', '-c', commands[0]], checkout);
    expect(first.code, first.stderr).toBe(0);
    const sessions = count();
    rmSync(join(checkout, 'claude-projects', '-home-dev-notes'), { recursive: true });
    const second = await run('bash', ['-euo', 'pipefail', '-c', commands[0]], checkout);
    expect(second.code, second.stderr).toBe(0);
    expect(count()).toBe(sessions);
  });
});
