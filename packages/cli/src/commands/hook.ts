import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringOption } from '../command-line/args.js';
import type { Command, CommandContext, Io } from '../command-line/command.js';
import { CliError, EXIT } from '../command-line/errors.js';
import { hookShellCommand } from '../hook/command-line.js';
import { findHook, installHook, uninstallHook } from '../hook/session-end-hooks.js';
import { archiveEndedSession, readHookJson, sessionEndInput } from '../hook/session-end-run.js';
import { readSettingsForEdit, settingsText, writeSettings } from '../hook/settings-file.js';
import { displayPath, retentionFacts, retentionNotice } from '../retention/notice.js';
import { userSettingsFile } from '../retention/settings-files.js';
import { cliVersion } from '../version.js';

/** The subcommands of `cctrail hook`; without one it is `status`. */
const SUBCOMMANDS = ['install', 'uninstall', 'status', 'run'] as const;

/** The archive folder when `--archive` is not given: `~/claude-archive`. */
function archiveFolder(context: CommandContext): string {
  const given = stringOption(context.options, 'archive');
  if (given === '') throw new CliError('--archive needs a folder');
  return resolve(context.io.cwd, given ?? join(context.io.env.HOME || homedir(), 'claude-archive'));
}

/** The settings file to edit: `--settings FILE`, else the user settings of Claude Code. */
function settingsFile(context: CommandContext): string {
  const given = stringOption(context.options, 'settings');
  return given ? resolve(context.io.cwd, given) : userSettingsFile(context.io.env);
}

/** The retention notice for the folder the command runs in, with the settings files it could not use. */
function retention(io: Io, hookInstalled: boolean): string[] {
  // archiveOnly: sessions only the archive still holds; 0 until the archive can say.
  return retentionNotice({ ...retentionFacts(io, 0), hookInstalled });
}

async function install(context: CommandContext): Promise<number> {
  const { io } = context;
  const file = settingsFile(context);
  const archive = archiveFolder(context);
  const command = hookShellCommand({
    node: process.execPath,
    bin: process.argv[1],
    version: cliVersion(),
    archive,
  });
  const { settings, text } = await readSettingsForEdit(file);
  const result = installHook(settings, command, file);
  if (result.outcome !== 'unchanged') await writeSettings(file, settingsText(result.settings));
  const shown = displayPath(file, io.env);
  const done = {
    added: `Added cctrail's SessionEnd hook to ${shown}${text === null ? ' (a new file)' : ''}.`,
    updated: `Updated cctrail's SessionEnd hook in ${shown}.`,
    unchanged: `cctrail's SessionEnd hook is already in ${shown}; nothing changed.`,
  }[result.outcome];
  io.stdout.write(
    [
      done,
      `When a Claude Code session ends, it is exported into ${archive}:`,
      `  ${command}`,
      `Sessions that ended before: \`cctrail export -o ${displayPath(archive, io.env)}\`. Undo: \`cctrail hook uninstall\`.`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

async function uninstall(context: CommandContext): Promise<number> {
  const file = settingsFile(context);
  const shown = displayPath(file, context.io.env);
  const { settings, text } = await readSettingsForEdit(file);
  const result = text === null ? { removed: 0, settings } : uninstallHook(settings, file);
  if (result.removed > 0) await writeSettings(file, settingsText(result.settings));
  context.io.stdout.write(
    result.removed > 0
      ? `Removed cctrail's SessionEnd hook from ${shown}.\n`
      : `${shown} has no cctrail hook; nothing changed.\n`,
  );
  return EXIT.ok;
}

async function status(context: CommandContext): Promise<number> {
  const { io } = context;
  const file = settingsFile(context);
  const shown = displayPath(file, io.env);
  const { settings } = await readSettingsForEdit(file);
  const command = findHook(settings, file);
  io.stdout.write(
    [
      command === null
        ? `Not installed: ${shown} has no cctrail SessionEnd hook. Run \`cctrail hook install\`.`
        : `Installed in ${shown}: when a session ends, Claude Code runs\n  ${command}`,
      ...retention(io, command !== null),
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

async function run(context: CommandContext): Promise<number> {
  const { io } = context;
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY) {
    throw new CliError("hook run reads a SessionEnd hook's JSON from stdin; Claude Code runs it", {
      hint: 'Run `cctrail hook install` to add the hook, or `cctrail export -o DIR` to archive now.',
    });
  }
  const archive = archiveFolder(context);
  const input = sessionEndInput(await readHookJson(stdin));
  return archiveEndedSession(input, archive, io);
}

/** `cctrail hook`: archives every Claude Code session when it ends, through a SessionEnd hook. */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'archive every session when it ends (a Claude Code SessionEnd hook)',
  usage: 'hook [install|uninstall|status|run] [--archive DIR] [--settings FILE]',
  description: [
    'Claude Code deletes transcripts older than cleanupPeriodDays (30 by default) when it starts.',
    '`hook install` adds a SessionEnd hook to its user settings ($CLAUDE_CONFIG_DIR/settings.json, else',
    '~/.claude/settings.json) that runs `cctrail hook run --archive DIR` when a session ends: the session is',
    'exported into DIR (default ~/claude-archive), as `cctrail export` would. Running it again updates the',
    "entry; every other setting and hook is kept. `hook uninstall` removes only cctrail's entry. `hook` or",
    '`hook status` says whether it is installed and how long Claude Code keeps transcripts. The hook never',
    'fails Claude Code: a failed export is a line on stderr and in <cache>/hook.log.',
  ].join('\n'),
  options: [
    {
      name: 'archive',
      type: 'string',
      value: 'DIR',
      description: 'archive folder the hook exports into (default ~/claude-archive)',
    },
    {
      name: 'settings',
      type: 'string',
      value: 'FILE',
      description: 'Claude Code settings file to edit (default ~/.claude/settings.json)',
    },
    { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  ],
  examples: [
    { command: 'cctrail hook install', comment: 'archive every session into ~/claude-archive when it ends' },
    { command: 'cctrail hook install --archive ~/notes/claude', comment: 'into another folder' },
    { command: 'cctrail hook', comment: 'is it installed? how long are transcripts kept?' },
    { command: 'cctrail hook uninstall', comment: 'remove the hook, nothing else' },
  ],
  async run(context) {
    const [sub = 'status', ...extra] = context.positionals;
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
      throw new CliError(`unknown hook subcommand ${sub}`, {
        hint: `Subcommands: ${SUBCOMMANDS.join(', ')}.`,
      });
    }
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra[0]}`);
    const action = { install, uninstall, status, run }[sub as (typeof SUBCOMMANDS)[number]];
    return action(context);
  },
};
