import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cctrail, FIXTURES, fixtureScenarios } from './helpers.js';

/**
 * `npx cctrail` as a new user runs it: no command builds the report of the default projects folder into
 * ./cctrail-report and says what to do next; `--open` hands the page to the default browser; a machine without
 * transcripts gets an error that says where cctrail looked and what to pass.
 */

const work = await mkdtemp(join(tmpdir(), 'cctrail-first-run-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
const hasFixtures = fixtureScenarios().length > 0;

/** A Claude configuration folder whose `projects/` holds a copy of a fixture. */
async function claudeConfig(name: string, scenario: string): Promise<string> {
  const config = join(work, name);
  await cp(join(FIXTURES, scenario), join(config, 'projects'), { recursive: true });
  return config;
}

describe.skipIf(!hasFixtures)('cctrail without a command', () => {
  it('builds the report of the default folder into ./cctrail-report and prints the next steps', async () => {
    const config = await claudeConfig('config-a', 'multi-project');
    const cwd = join(work, 'run-a');
    await mkdir(cwd);
    const run = await cctrail([], { cwd, env: { CLAUDE_CONFIG_DIR: config } });
    expect(run.code).toBe(0);
    const index = join(cwd, 'cctrail-report', 'index.html');
    expect(run.stdout).toBe(`${index}\n`);
    expect(await readFile(index, 'utf8')).toContain('<html');
    expect(run.stderr).toContain('Next steps:');
    expect(run.stderr).toContain('npx cctrail --open');
    expect(run.stderr).toContain('cctrail-report/index.html');
  });

  it('takes a folder as its first argument, and report options', async () => {
    const cwd = join(work, 'run-b');
    await mkdir(cwd);
    const given = ['-o', 'site', '--title', 'Mine', '-p', 'linear', '--no-redact'];
    const run = await cctrail([join(FIXTURES, 'linear'), ...given], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${join(cwd, 'site', 'index.html')}\n`);
    expect(await readFile(join(cwd, 'site', 'index.html'), 'utf8')).toContain('Mine');
    // The next steps repeat the folder, the output and the options given: each works as it is.
    const folder = join(FIXTURES, 'linear');
    const same = `npx cctrail ${folder} -o site --title Mine --project linear --no-redact`;
    expect(run.stderr).toContain(`refresh it       ${same} `);
    expect(run.stderr).toContain(`${same} --open`);
    // Publishing redacts, whatever this run was told; export and stats take the same sessions.
    expect(run.stderr).toContain(
      `publish it       npx cctrail report ${folder} -o site --title Mine --project linear --base /<repo>/ --short-home `,
    );
    expect(run.stderr).toContain(`npx cctrail export ${folder} --project linear -o archive`);
    expect(run.stderr).toContain(`npx cctrail stats ${folder} --project linear\n`);
    const refresh = /refresh it {7}npx cctrail (.*?) {2,}/.exec(run.stderr)?.[1]?.split(' ') ?? [];
    await rm(join(cwd, 'site', 'index.html'));
    expect((await cctrail(refresh, { cwd })).code).toBe(0);
    expect(await readFile(join(cwd, 'site', 'index.html'), 'utf8')).toContain('Mine');
  });

  it('--open hands the index page to the default browser', async () => {
    const config = await claudeConfig('config-c', 'linear');
    const cwd = join(work, 'run-c');
    await mkdir(cwd);
    const opened = join(work, 'opened.txt');
    const browser = join(work, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\necho "$1" > '${opened}'\n`);
    await chmod(browser, 0o755);
    // No display: xdg-open falls back to $BROWSER, here a script that writes down what it was given.
    const env = { CLAUDE_CONFIG_DIR: config, BROWSER: browser, DISPLAY: '', WAYLAND_DISPLAY: '' };
    const run = await cctrail(['--open'], { cwd, env });
    expect(run.code).toBe(0);
    const index = join(cwd, 'cctrail-report', 'index.html');
    await vi.waitFor(async () => expect((await readFile(opened, 'utf8')).trim()).toBe(index), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

describe('cctrail without transcripts', () => {
  it('says where it looked and what to pass', async () => {
    const home = join(work, 'empty-home');
    await mkdir(home);
    const run = await cctrail([], { cwd: home, env: { HOME: home, CLAUDE_CONFIG_DIR: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `cctrail: no Claude Code transcripts found: looked in ${join(home, '.claude', 'projects')}`,
    );
    expect(run.stderr).toContain('npx cctrail report <folder>');
    expect(run.stdout).toBe('');
  });

  it('names $CLAUDE_CONFIG_DIR when that is where it looked', async () => {
    const run = await cctrail(['--open'], { cwd: work, env: { CLAUDE_CONFIG_DIR: join(work, 'none') } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`looked in ${join(work, 'none', 'projects')} ($CLAUDE_CONFIG_DIR/projects)`);
  });
});

describe.skipIf(!hasFixtures)('a file among the transcripts that is not a transcript', () => {
  it('is one warning for the file, not an error per line', async () => {
    const projects = join(work, 'with-other');
    await cp(join(FIXTURES, 'linear'), projects, { recursive: true });
    const other = { tool: 'another', version: 3, items: Array.from({ length: 40 }, (_, i) => ({ i })) };
    await mkdir(join(projects, 'other-tool'));
    await writeFile(join(projects, 'other-tool', 'settings.jsonl'), JSON.stringify(other, null, 2));
    const run = await cctrail(['stats', projects, '--json']);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout) as { totals: { diagnostics: Record<string, number> } };
    expect(stats.totals.diagnostics).toEqual({ error: 0, warning: 1, info: 0 });
    expect(run.stderr).not.toMatch(/invalid-json/);
    const verbose = await cctrail(['stats', projects, '--verbose']);
    const lines = verbose.stderr.split('\n').filter((l) => l.includes('settings.jsonl'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('not-a-transcript');
  });
});
