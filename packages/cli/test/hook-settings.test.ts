import { describe, expect, it } from 'vitest';
import { CliError } from '../src/command-line/errors.js';
import { hookShellCommand, isOurCommand, isTemporaryInstall, shellQuote } from '../src/hook/command-line.js';
import { findHook, installHook, uninstallHook } from '../src/hook/session-end-hooks.js';

/** The SessionEnd hook cctrail writes into Claude Code's settings, and only that. */

const OURS = "/usr/bin/node /opt/cctrail/bin.js hook run --archive '/home/me/my archive'";
const FILE = '/home/me/.claude/settings.json';

const others = () => ({
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }],
    SessionEnd: [{ hooks: [{ type: 'command', command: 'notify-send bye' }] }],
  },
  permissions: { allow: ['Bash(ls:*)'] },
});

describe('installHook / uninstallHook', () => {
  it('adds a group of its own after the others, and uninstall gives the same object back', () => {
    const before = others();
    const { settings, outcome } = installHook(before, OURS, FILE);
    expect(outcome).toBe('added');
    expect(settings.hooks).toEqual({
      PreToolUse: before.hooks.PreToolUse,
      SessionEnd: [before.hooks.SessionEnd[0], { hooks: [{ type: 'command', command: OURS, timeout: 60 }] }],
    });
    expect(before).toEqual(others());
    expect(findHook(settings, FILE)).toBe(OURS);
    const undone = uninstallHook(settings, FILE);
    expect(undone.removed).toBe(1);
    expect(JSON.stringify(undone.settings)).toBe(JSON.stringify(before));
  });

  it('creates hooks.SessionEnd in an empty file, and removes what it created', () => {
    const { settings } = installHook({ theme: 'dark' }, OURS, FILE);
    expect(settings).toEqual({ theme: 'dark', hooks: { SessionEnd: [{ hooks: [expect.any(Object)] }] } });
    expect(uninstallHook(settings, FILE).settings).toEqual({ theme: 'dark' });
  });

  it('leaves empty things it did not empty', () => {
    const before = { hooks: { Stop: [] } };
    const { settings } = installHook(before, OURS, FILE);
    expect(uninstallHook(settings, FILE).settings).toEqual(before);
    // An empty SessionEnd list of its own cannot be told from one cctrail emptied: it goes.
    const empty = installHook({ hooks: { SessionEnd: [] } }, OURS, FILE).settings;
    expect(uninstallHook(empty, FILE).settings).toEqual({});
    const group = { hooks: { SessionEnd: [{ matcher: 'clear', hooks: [] }] } };
    expect(uninstallHook(installHook(group, OURS, FILE).settings, FILE).settings).toEqual(group);
  });

  it('is idempotent, updates its command in place, and drops a second copy of itself', () => {
    const once = installHook(others(), OURS, FILE).settings;
    expect(installHook(once, OURS, FILE)).toEqual({ settings: once, outcome: 'unchanged' });
    const moved = OURS.replace('my archive', 'elsewhere');
    const updated = installHook(once, moved, FILE);
    expect(updated.outcome).toBe('updated');
    expect(JSON.stringify(updated.settings)).toBe(JSON.stringify(once).replace('my archive', 'elsewhere'));
    const twice = structuredClone(once) as { hooks: { SessionEnd: unknown[] } };
    twice.hooks.SessionEnd.push({ hooks: [{ type: 'command', command: `${OURS} --x` }] });
    const cleaned = installHook(twice, OURS, FILE);
    expect(cleaned).toEqual({ settings: once, outcome: 'updated' });
  });

  it('keeps a hook that shares its group', () => {
    const shared = {
      hooks: {
        SessionEnd: [
          {
            hooks: [
              { type: 'command', command: OURS },
              { type: 'command', command: 'x' },
            ],
          },
        ],
      },
    };
    expect(uninstallHook(shared, FILE)).toEqual({
      settings: { hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'x' }] }] } },
      removed: 1,
    });
  });

  it.each([
    [{ hooks: [] }, '"hooks" is not an object'],
    [{ hooks: { SessionEnd: {} } }, '"hooks.SessionEnd" is not a list'],
    [{ hooks: { SessionEnd: [{ command: 'x' }] } }, '"hooks.SessionEnd[0]" is not {"hooks": [...]}'],
  ])('refuses a shape Claude Code does not have: %j', (settings, message) => {
    expect(() => installHook(settings, OURS, FILE)).toThrow(CliError);
    expect(() => uninstallHook(settings, FILE)).toThrow(message);
  });
});

describe('the hook command', () => {
  it('runs this node and this cctrail when they stay where they are', () => {
    const parts = { node: '/usr/bin/node', version: '0.2.0', archive: '/home/me/claude-archive' };
    expect(hookShellCommand({ ...parts, bin: '/usr/lib/node_modules/cctrail/dist/bundle/bin.js' })).toBe(
      '/usr/bin/node /usr/lib/node_modules/cctrail/dist/bundle/bin.js hook run --archive /home/me/claude-archive',
    );
    expect(hookShellCommand({ ...parts, bin: '/src/repo/dist/bin.js' })).toBe(
      '/usr/bin/node /src/repo/dist/bin.js hook run --archive /home/me/claude-archive # cctrail',
    );
  });

  it('runs npx with the version pinned from a one-off runner cache', () => {
    const bin = '/home/me/.npm/_npx/1a2b/node_modules/cctrail/dist/bundle/bin.js';
    expect(isTemporaryInstall(bin)).toBe(true);
    expect(isTemporaryInstall('/home/me/.cache/pnpm/dlx/abc/node_modules/cctrail/bin.js')).toBe(true);
    expect(isTemporaryInstall('/usr/lib/node_modules/cctrail/dist/bundle/bin.js')).toBe(false);
    expect(hookShellCommand({ node: '/n', bin, version: '0.2.0', archive: '/a' })).toBe(
      'npx --yes cctrail@0.2.0 hook run --archive /a',
    );
    expect(hookShellCommand({ node: '/n', bin: undefined, version: '0.2.0', archive: '/a' })).toMatch(
      /^npx /,
    );
  });

  it('quotes paths for a shell', () => {
    expect(shellQuote('/home/me/x')).toBe('/home/me/x');
    expect(shellQuote('/Users/Me/My Archive')).toBe("'/Users/Me/My Archive'");
    expect(shellQuote("/tmp/it's $HOME `x`")).toBe("'/tmp/it'\\''s $HOME `x`'");
  });

  it('knows its own entries', () => {
    expect(isOurCommand(OURS)).toBe(true);
    expect(isOurCommand('npx --yes cctrail@0.2.0 hook run --archive /a')).toBe(true);
    expect(isOurCommand('/n /src/dist/bin.js hook run --archive /a # cctrail')).toBe(true);
    expect(isOurCommand('cctrail export -o x')).toBe(false);
    expect(isOurCommand('my-hook run')).toBe(false);
    expect(isOurCommand(undefined)).toBe(false);
  });
});
