import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError, fsReason } from '../command-line/errors.js';

/**
 * Reading and writing the Claude Code settings file that `cctrail hook` edits: as 2-space JSON with a trailing
 * newline, written atomically into the real file (a symbolic link, as dotfile managers make, stays a link),
 * with the file's permissions kept.
 */

/** A settings file as read for an edit. */
export interface SettingsText {
  /** The parsed object; `{}` when the file does not exist. */
  settings: Record<string, unknown>;
  /** The file's text, or null when it does not exist. */
  text: string | null;
}

/**
 * Reads a settings file for an edit. A missing file reads as `{}`; a file that is not a JSON object is
 * refused with a `CliError`, so nothing is changed.
 *
 * @param file Absolute path.
 */
export async function readSettingsForEdit(file: string): Promise<SettingsText> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, text: null };
    throw new CliError(`cannot read ${file}: ${fsReason(error as NodeJS.ErrnoException)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON (${(error as Error).message}); nothing was changed`, {
      hint: 'Fix the file (Claude Code cannot read it either), then run the command again.',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(`${file} does not hold a JSON object; nothing was changed`);
  }
  return { settings: value as Record<string, unknown>, text };
}

/**
 * The text a settings object is written as: JSON with a 2-space indent and a trailing newline.
 *
 * @param settings The settings object.
 */
export function settingsText(settings: Record<string, unknown>): string {
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/**
 * Writes a settings file atomically: into `<real file>.tmp-<pid>` with the old file's permissions, then
 * renamed over it. A missing file is created (and its folder).
 *
 * @param file Absolute path (may be a symbolic link).
 * @param text The new contents.
 */
export async function writeSettings(file: string, text: string): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const mode = (await stat(target).catch(() => null))?.mode;
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.tmp-${process.pid}`;
  try {
    // Private until it has the old file's permissions; a new file gets the usual ones.
    await writeFile(temporary, text, mode === undefined ? {} : { mode: 0o600 });
    if (mode !== undefined) await chmod(temporary, mode & 0o7777);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${file}: ${fsReason(error as NodeJS.ErrnoException)}`);
  }
}
