import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { displayPath, retentionLine, retentionNotice } from '../src/retention/notice.js';
import { readRetention } from '../src/retention/retention.js';
import { claudeConfigDir, managedSettingsFile, settingsFiles } from '../src/retention/settings-files.js';

/**
 * Claude Code's `cleanupPeriodDays`, read as Claude Code ranks its settings files: managed, local project,
 * shared project, user ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json). Every folder here is
 * a temporary one: the real ~/.claude is never read.
 */

const root = await mkdtemp(join(tmpdir(), 'cctrail-retention-'));
afterAll(() => rm(root, { recursive: true, force: true }), 0);
let count = 0;

/** A home folder, a project folder and a managed settings path, with the given files written. */
async function place(files: { managed?: string; local?: string; project?: string; user?: string } = {}) {
  const base = join(root, `case-${count++}`);
  const home = join(base, 'home');
  const cwd = join(base, 'project');
  const managedFile = join(base, 'etc', 'managed-settings.json');
  const paths = {
    managed: managedFile,
    local: join(cwd, '.claude', 'settings.local.json'),
    project: join(cwd, '.claude', 'settings.json'),
    user: join(home, '.claude', 'settings.json'),
  };
  for (const [scope, text] of Object.entries(files)) {
    const file = paths[scope as keyof typeof paths];
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, text);
  }
  return { cwd, env: { HOME: home } as NodeJS.ProcessEnv, managedFile, paths, home };
}

const days = (n: number | string) => `{ "cleanupPeriodDays": ${n} }\n`;

describe('readRetention', () => {
  it('is 30 days, from no file, when nothing sets it (missing files are no settings)', async () => {
    const at = await place();
    expect(readRetention(at)).toEqual({ days: 30, source: null, userFile: at.paths.user, problems: [] });
  });

  it('takes the first file that sets it: managed, local, project, user', async () => {
    const all = await place({ managed: days(1), local: days(2), project: days(3), user: days(4) });
    expect(readRetention(all)).toMatchObject({
      days: 1,
      source: { scope: 'managed', file: all.paths.managed },
    });
    const noManaged = await place({ local: days(2), project: days(3), user: days(4) });
    expect(readRetention(noManaged)).toMatchObject({ days: 2, source: { scope: 'local' } });
    const projectUser = await place({ local: '{"model": "x"}', project: days(3), user: days(4) });
    expect(readRetention(projectUser)).toMatchObject({ days: 3, source: { scope: 'project' } });
    const user = await place({ project: '{}', user: days(36500) });
    expect(readRetention(user)).toMatchObject({
      days: 36500,
      source: { scope: 'user', file: user.paths.user },
    });
  });

  it('reads the user settings from $CLAUDE_CONFIG_DIR when it is set, not from ~/.claude', async () => {
    const at = await place({ user: days(4) });
    const config = join(root, `config-${count++}`);
    await mkdir(config, { recursive: true });
    await writeFile(join(config, 'settings.json'), days(90));
    const retention = readRetention({ ...at, env: { ...at.env, CLAUDE_CONFIG_DIR: config } });
    expect(retention).toMatchObject({
      days: 90,
      source: { scope: 'user', file: join(config, 'settings.json') },
    });
    expect(retention.userFile).toBe(join(config, 'settings.json'));
  });

  it('reports a file that is not JSON, and goes on to the next one', async () => {
    const at = await place({ local: '{ "cleanupPeriodDays": 5,', user: days(7) });
    const retention = readRetention(at);
    expect(retention).toMatchObject({ days: 7, source: { scope: 'user' } });
    expect(retention.problems).toHaveLength(1);
    expect(retention.problems[0]).toContain(`${at.paths.local} is not valid JSON`);
  });

  it('reports a file that is not an object, and a bad value, and counts them as unset', async () => {
    const at = await place({ project: '[1, 2]', user: days('"60"') });
    const retention = readRetention(at);
    expect(retention).toMatchObject({ days: 30, source: null });
    expect(retention.problems).toEqual([
      `${at.paths.project} is not a JSON object; its cleanupPeriodDays (if any) is not counted.`,
      `${at.paths.user} sets cleanupPeriodDays to "60", which is not a whole number of days; it is not counted.`,
    ]);
    for (const bad of ['-1', '2.5', 'null', 'true']) {
      const other = await place({ user: days(bad) });
      expect(readRetention(other)).toMatchObject({ days: 30, source: null });
      expect(readRetention(other).problems).toHaveLength(1);
    }
  });

  it('keeps 0 as it is: a value to warn about, not a default', async () => {
    const at = await place({ user: days(0) });
    expect(readRetention(at)).toMatchObject({ days: 0, source: { scope: 'user' }, problems: [] });
  });

  it('lists the files in precedence order, with the platform managed file by default', () => {
    const env = { HOME: '/h' };
    expect(settingsFiles({ cwd: '/p', env }).map((f) => `${f.scope} ${f.file}`)).toEqual([
      `managed ${managedSettingsFile()}`,
      'local /p/.claude/settings.local.json',
      'project /p/.claude/settings.json',
      'user /h/.claude/settings.json',
    ]);
    expect(managedSettingsFile('linux')).toBe('/etc/claude-code/managed-settings.json');
    expect(managedSettingsFile('darwin')).toBe(
      '/Library/Application Support/ClaudeCode/managed-settings.json',
    );
    expect(claudeConfigDir({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
  });
});

describe('retentionNotice', () => {
  const env = { HOME: '/home/me' };
  const userFile = '/home/me/.claude/settings.json';
  const unset = { days: 30, source: null, userFile, problems: [], env };

  it('says the default, what only the archive holds, and the exact edit', () => {
    expect(retentionNotice({ ...unset, archiveOnly: 3 })).toEqual([
      'Claude Code keeps 30 days of transcripts (default; ~/.claude/settings.json has no cleanupPeriodDays). ' +
        '3 sessions exist only in the archive.',
      'To keep more, add "cleanupPeriodDays": 36500 to ~/.claude/settings.json, or run `cctrail hook install` ' +
        'to archive every session when it ends.',
    ]);
    expect(retentionLine({ ...unset, archiveOnly: 0, hookInstalled: true })).toBe(
      'Claude Code keeps 30 days of transcripts (default; ~/.claude/settings.json has no cleanupPeriodDays). ' +
        'Keep more: add "cleanupPeriodDays": 36500 to ~/.claude/settings.json.',
    );
  });

  it('names the file in force, and asks for the edit there', () => {
    const source = { scope: 'project' as const, file: '/work/app/.claude/settings.json' };
    expect(retentionNotice({ ...unset, days: 7, source, archiveOnly: 1 })).toEqual([
      'Claude Code keeps 7 days of transcripts (cleanupPeriodDays in /work/app/.claude/settings.json). ' +
        '1 session exists only in the archive.',
      'To keep more, set "cleanupPeriodDays": 36500 in /work/app/.claude/settings.json, or run ' +
        '`cctrail hook install` to archive every session when it ends.',
    ]);
  });

  it('gives no advice when transcripts are kept for ten years or more', () => {
    const source = { scope: 'user' as const, file: userFile };
    expect(retentionNotice({ ...unset, days: 36500, source, archiveOnly: 0 })).toEqual([
      'Claude Code keeps 36500 days of transcripts (cleanupPeriodDays in ~/.claude/settings.json).',
    ]);
  });

  it('warns about 0, and puts the files it could not use first', () => {
    const source = { scope: 'user' as const, file: userFile };
    const lines = retentionNotice({
      ...unset,
      days: 0,
      source,
      problems: ['x is not valid JSON.'],
      archiveOnly: 0,
    });
    expect(lines[0]).toBe('Warning: x is not valid JSON.');
    expect(lines[1]).toMatch(
      /^Warning: cleanupPeriodDays is 0 in ~\/\.claude\/settings\.json\. Claude Code before 2\.1\.89/,
    );
    expect(lines[1]).toContain('set "cleanupPeriodDays": 36500 in ~/.claude/settings.json');
    expect(retentionLine({ ...unset, days: 0, source, archiveOnly: 0 })).toMatch(
      /^Warning: cleanupPeriodDays is 0/,
    );
  });

  it('shows paths under the home folder with ~', () => {
    expect(displayPath('/home/me/.claude/settings.json', env)).toBe('~/.claude/settings.json');
    expect(displayPath('/home/meme/x', env)).toBe('/home/meme/x');
  });
});
