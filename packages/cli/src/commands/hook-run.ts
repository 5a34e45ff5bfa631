import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringOption } from '../command-line/args.js';
import type { CommandContext, Io } from '../command-line/command.js';
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

/** Does the work of `cctrail hook` (see `hookCommand`). */
export async function runHook(context: CommandContext): Promise<number> {
  const [sub = 'status', ...extra] = context.positionals;
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
    throw new CliError(`unknown hook subcommand ${sub}`, {
      hint: `Subcommands: ${SUBCOMMANDS.join(', ')}.`,
    });
  }
  if (extra.length > 0) throw new CliError(`unexpected argument ${extra[0]}`);
  const action = { install, uninstall, status, run }[sub as (typeof SUBCOMMANDS)[number]];
  return action(context);
}
