import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES, fixtureScenarios } from './helpers.js';

/**
 * `cctrail hook`, run as the real binary against settings files in temporary folders (HOME and
 * CLAUDE_CONFIG_DIR always point there): install keeps every other setting and hook and is idempotent,
 * uninstall gives the file back byte for byte, and `hook run` fed a SessionEnd input archives the session.
 */

const work = await mkdtemp(join(tmpdir(), 'cctrail-hook-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
let count = 0;

/** A fresh home folder with a Claude configuration folder in it, and the environment that points there. */
async function home() {
  const dir = join(work, `home-${count++}`);
  const config = join(dir, '.claude');
  await mkdir(config, { recursive: true });
  const env = { HOME: dir, CLAUDE_CONFIG_DIR: config, CCTRAIL_CACHE_DIR: join(dir, 'cache') };
  return { dir, settings: join(config, 'settings.json'), env };
}

/** A user's settings: other hooks (with matchers), other events and other keys, written as Claude Code does. */
const USER_SETTINGS = `${JSON.stringify(
  {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    model: 'opus',
    permissions: { allow: ['Bash(npm run lint)'], deny: ['Read(./.env)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/audit.sh', timeout: 5 }] }],
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      SessionEnd: [{ matcher: 'clear', hooks: [{ type: 'command', command: 'echo cleared >> ~/log' }] }],
    },
    cleanupPeriodDays: 45,
  },
  null,
  2,
)}\n`;

const EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
]);

/**
 * The problems of a `hooks` value against the shape Claude Code's hooks documentation gives:
 * `{ <Event>: [{ matcher?: string, hooks: [{ type: "command", command: string, timeout?: number }] }] }`.
 */
function hookShapeProblems(hooks: unknown): string[] {
  const problems: string[] = [];
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return ['hooks is not an object'];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!EVENTS.has(event)) problems.push(`${event} is not a hook event`);
    if (!Array.isArray(groups)) {
      problems.push(`${event} is not a list`);
      continue;
    }
    for (const [i, group] of groups.entries()) {
      const at = `${event}[${i}]`;
      const keys = Object.keys(group ?? {}).filter((key) => key !== 'matcher' && key !== 'hooks');
      if (keys.length > 0) problems.push(`${at} has unknown keys ${keys.join(', ')}`);
      if (group.matcher !== undefined && typeof group.matcher !== 'string') problems.push(`${at}.matcher`);
      if (!Array.isArray(group.hooks) || group.hooks.length === 0) problems.push(`${at}.hooks is not a list`);
      for (const [j, hook] of (group.hooks ?? []).entries()) {
        if (hook.type !== 'command') problems.push(`${at}.hooks[${j}].type`);
        if (typeof hook.command !== 'string' || hook.command === '')
          problems.push(`${at}.hooks[${j}].command`);
        if (hook.timeout !== undefined && !(Number.isInteger(hook.timeout) && hook.timeout > 0))
          problems.push(`${at}.hooks[${j}].timeout`);
      }
    }
  }
  return problems;
}

describe('cctrail hook install / uninstall', () => {
  it('adds one SessionEnd hook, keeps everything else, and uninstall restores the file byte for byte', async () => {
    const { settings, env, dir } = await home();
    await writeFile(settings, USER_SETTINGS);
    const install = await cctrail(['hook', 'install'], { env });
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("Added cctrail's SessionEnd hook to ");
    const text = await readFile(settings, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const after = JSON.parse(text);
    const before = JSON.parse(USER_SETTINGS);
    expect(hookShapeProblems(after.hooks)).toEqual([]);
    expect({ ...after, hooks: undefined }).toEqual({ ...before, hooks: undefined });
    expect(after.hooks.PreToolUse).toEqual(before.hooks.PreToolUse);
    expect(after.hooks.PostToolUse).toEqual(before.hooks.PostToolUse);
    expect(after.hooks.SessionEnd).toHaveLength(2);
    expect(after.hooks.SessionEnd[0]).toEqual(before.hooks.SessionEnd[0]);
    const ours = after.hooks.SessionEnd[1];
    expect(Object.keys(ours)).toEqual(['hooks']);
    expect(ours.hooks).toEqual([{ type: 'command', command: expect.any(String), timeout: 60 }]);
    const archive = join(dir, 'claude-archive');
    const bin = join(import.meta.dirname, '..', 'dist', 'bin.js');
    // ` # cctrail` names the binary when its path does not (a checkout in a folder of another name).
    expect(ours.hooks[0].command).toMatch(/^\S+ \S+ hook run --archive \S+( # cctrail)?$/);
    expect(ours.hooks[0].command.startsWith(`${process.execPath} ${bin} hook run --archive ${archive}`)).toBe(
      true,
    );

    const again = await cctrail(['hook', 'install'], { env });
    expect(again.stdout).toContain('already in');
    expect(await readFile(settings, 'utf8')).toBe(text);

    const status = await cctrail(['hook'], { env });
    expect(status.stdout).toContain('Installed in ~/.claude/settings.json');
    expect(status.stdout).toContain(
      'Claude Code keeps 45 days of transcripts (cleanupPeriodDays in ~/.claude/settings.json).',
    );

    const uninstall = await cctrail(['hook', 'uninstall'], { env });
    expect(uninstall.code).toBe(0);
    expect(await readFile(settings, 'utf8')).toBe(USER_SETTINGS);
    expect(await readdir(join(dir, '.claude'))).toEqual(['settings.json']);
    expect((await cctrail(['hook', 'status'], { env })).stdout).toMatch(/^Not installed: /);
  });

  it('updates its entry when the archive folder changes, and writes through a symbolic link', async () => {
    const { settings, env, dir } = await home();
    const real = join(dir, 'dotfiles-settings.json');
    await writeFile(real, USER_SETTINGS);
    await symlink(real, settings);
    await cctrail(['hook', 'install', '--archive', 'first'], { env, cwd: dir });
    const moved = await cctrail(['hook', 'install', '--archive', join(dir, 'second place')], {
      env,
      cwd: dir,
    });
    expect(moved.stdout).toContain('Updated');
    const after = JSON.parse(await readFile(real, 'utf8'));
    const commands = after.hooks.SessionEnd.flatMap((g: { hooks: { command: string }[] }) =>
      g.hooks.map((h) => h.command),
    );
    expect(commands.filter((c: string) => c.includes('hook run'))).toEqual([
      expect.stringContaining(`--archive '${join(dir, 'second place')}'`),
    ]);
    await cctrail(['hook', 'uninstall'], { env });
    expect(await readFile(real, 'utf8')).toBe(USER_SETTINGS);
  });

  it('creates a missing settings file (--settings), and refuses one that is not JSON, changing nothing', async () => {
    const { dir, env } = await home();
    const file = join(dir, 'elsewhere', 'settings.json');
    const created = await cctrail(['hook', 'install', '--settings', file], { env });
    expect(created.code).toBe(0);
    expect(hookShapeProblems(JSON.parse(await readFile(file, 'utf8')).hooks)).toEqual([]);
    const broken = '{ "model": "opus", }\n';
    await writeFile(file, broken);
    const refused = await cctrail(['hook', 'install', '--settings', file], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file} is not valid JSON`);
    expect(refused.stderr).toContain('nothing was changed');
    expect(await readFile(file, 'utf8')).toBe(broken);
    expect((await cctrail(['hook', 'uninstall', '--settings', file], { env })).code).toBe(2);
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('rejects an unknown subcommand', async () => {
    const run = await cctrail(['hook', 'frob'], { env: (await home()).env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown hook subcommand frob');
  });
});

describe.skipIf(fixtureScenarios().length === 0)('cctrail hook run', () => {
  it('archives the session a SessionEnd input names', async () => {
    const { dir, env } = await home();
    const projects = join(dir, '.claude', 'projects');
    await cp(join(FIXTURES, 'linear'), projects, { recursive: true });
    const project = join(projects, '-home-dev-linear');
    const [file] = (await readdir(project)).filter((name) => name.endsWith('.jsonl'));
    const sessionId = file!.replace(/\.jsonl$/, '');
    const archive = join(dir, 'archive');
    const input = {
      session_id: sessionId,
      transcript_path: join(project, file!),
      cwd: '/home/dev/linear',
      permission_mode: 'default',
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
    };
    const run = await cctrail(['hook', 'run', '--archive', archive], { env, input: JSON.stringify(input) });
    expect(run.code).toBe(0);
    const index = JSON.parse(await readFile(join(archive, 'index.json'), 'utf8'));
    expect(index.projects.map((p: { sessions: { id: string }[] }) => p.sessions.map((s) => s.id))).toEqual([
      [sessionId],
    ]);
    expect(await readdir(join(archive, 'sessions', '-home-dev-linear'))).toEqual([`${sessionId}.json`]);
    const log = await readFile(join(env.CCTRAIL_CACHE_DIR, 'hook.log'), 'utf8');
    expect(log).toMatch(
      new RegExp(
        `^\\S+ ${sessionId} \\(prompt_input_exit\\) archived into ${archive} \\(export exit 0\\)\\n$`,
      ),
    );
  });

  it('keeps the sessions already in the archive when it adds the one that ended', async () => {
    const { dir, env } = await home();
    const projects = join(dir, '.claude', 'projects');
    await cp(join(FIXTURES, 'rewind'), projects, { recursive: true });
    const [project] = await readdir(projects);
    const folder = join(projects, project!);
    const ids = (await readdir(folder))
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => n.replace(/\.jsonl$/, ''));
    expect(ids).toHaveLength(2);
    const archive = join(dir, 'archive');
    for (const id of ids) {
      const input = JSON.stringify({
        session_id: id,
        transcript_path: join(folder, `${id}.jsonl`),
        reason: 'other',
      });
      expect((await cctrail(['hook', 'run', '--archive', archive], { env, input })).code).toBe(0);
    }
    const index = JSON.parse(await readFile(join(archive, 'index.json'), 'utf8'));
    const listed = index.projects.flatMap((p: { sessions: { id: string }[] }) => p.sessions.map((s) => s.id));
    expect(listed.sort()).toEqual([...ids].sort());
    // Claude Code deletes the first one: the next hook keeps it, marked missing.
    await rm(join(folder, `${ids[0]}.jsonl`));
    const input = JSON.stringify({ session_id: ids[1], transcript_path: join(folder, `${ids[1]}.jsonl`) });
    expect((await cctrail(['hook', 'run', '--archive', archive], { env, input })).code).toBe(0);
    const after = JSON.parse(await readFile(join(archive, 'index.json'), 'utf8'));
    const gone = after.projects[0].sessions.find((s: { id: string }) => s.id === ids[0]);
    expect(gone?.archived?.status).toBe('missing');
  });

  it('never fails Claude Code over a session it cannot archive, and says why input is unusable', async () => {
    const { env } = await home();
    const gone = {
      session_id: 'abc',
      transcript_path: join(work, 'gone.jsonl'),
      hook_event_name: 'SessionEnd',
    };
    const missing = await cctrail(['hook', 'run', '--archive', join(work, 'a')], {
      env,
      input: JSON.stringify(gone),
    });
    expect(missing.code).toBe(0);
    expect(missing.stderr).toContain('nothing to archive for abc');
    const bad = await cctrail(['hook', 'run'], { env, input: 'not json' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not JSON');
    const none = await cctrail(['hook', 'run'], { env, input: '{"hook_event_name":"SessionEnd"}' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('"session_id" and "transcript_path"');
  });
});
