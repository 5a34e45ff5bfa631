import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES, fixtureScenarios } from './helpers.js';

/**
 * Where cctrail tells how long Claude Code keeps transcripts: the first run's next steps, the end of `stats`,
 * and `report`'s summary on stderr. The settings are in a temporary home folder.
 */

const work = await mkdtemp(join(tmpdir(), 'cctrail-retention-e2e-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** A home folder whose Claude configuration holds a fixture's transcripts and the given user settings. */
async function home(name: string, settings: string | null) {
  const dir = join(work, name);
  const config = join(dir, '.claude');
  await cp(join(FIXTURES, 'linear'), join(config, 'projects'), { recursive: true });
  if (settings !== null) await writeFile(join(config, 'settings.json'), settings);
  const cwd = join(dir, 'work');
  await mkdir(cwd);
  return { cwd, env: { HOME: dir, CLAUDE_CONFIG_DIR: config } };
}

const DEFAULT_LINE =
  'Claude Code keeps 30 days of transcripts (default; ~/.claude/settings.json has no cleanupPeriodDays). ' +
  'Keep more: add "cleanupPeriodDays": 36500 to ~/.claude/settings.json, or `cctrail hook install`.';

describe.skipIf(fixtureScenarios().length === 0)('the retention notice', () => {
  it('ends the human output of stats, and stays out of stats --json', async () => {
    const at = await home('stats', null);
    const run = await cctrail(['stats'], at);
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith(`\n\n${DEFAULT_LINE}\n`)).toBe(true);
    const json = await cctrail(['stats', '--json'], at);
    expect(json.stdout).not.toContain('cleanupPeriodDays');
  });

  it('names the project settings that win over the user settings, and warns about a broken file', async () => {
    const at = await home('project', '{ "cleanupPeriodDays": 90 }\n');
    await mkdir(join(at.cwd, '.claude'));
    await writeFile(join(at.cwd, '.claude', 'settings.json'), '{ "cleanupPeriodDays": 7 }\n');
    await writeFile(join(at.cwd, '.claude', 'settings.local.json'), '{ oops');
    const run = await cctrail(['stats'], at);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Claude Code keeps 7 days of transcripts (cleanupPeriodDays in ~/work/.claude/settings.json). ' +
        'Keep more: set "cleanupPeriodDays": 36500 in ~/work/.claude/settings.json, or `cctrail hook install`.',
    );
    expect(run.stdout).toContain(
      'Warning: 1 settings file could not be used (`cctrail hook status` says why).',
    );
    const hook = await cctrail(['hook', 'status'], at);
    expect(hook.stdout).toContain(
      `Warning: ${join(at.cwd, '.claude', 'settings.local.json')} is not valid JSON`,
    );
  });

  it('is one line of the report summary, and the notice after the first run next steps', async () => {
    const at = await home('report', '{ "cleanupPeriodDays": 0 }\n');
    const report = await cctrail(['report', '-o', 'site'], at);
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(
      /\nWarning: cleanupPeriodDays is 0 in ~\/\.claude\/settings\.json: Claude Code may delete every transcript; set "cleanupPeriodDays": 36500 in ~\/\.claude\/settings\.json\.\n/,
    );
    const first = await cctrail([], await home('first', null));
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('keep everything  npx cctrail hook install');
    expect(first.stderr).toContain(
      '\nClaude Code keeps 30 days of transcripts (default; ~/.claude/settings.json has no cleanupPeriodDays).\n' +
        'To keep more, add "cleanupPeriodDays": 36500 to ~/.claude/settings.json, or run `cctrail hook install` ' +
        'to archive every session when it ends.\n',
    );
    expect(first.stderr.match(/Claude Code keeps/g)).toHaveLength(1);
  });
});
