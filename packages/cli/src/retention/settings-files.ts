import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Claude Code keeps its settings files, and reading one of them loosely: a missing file is no settings,
 * a file that is not a JSON object is a problem to report, never an exception.
 */

/** A scope of Claude Code's settings, from the highest precedence to the lowest. */
export type SettingsScope = 'managed' | 'local' | 'project' | 'user';

/** One settings file Claude Code reads, and the scope it belongs to. */
export interface SettingsFile {
  scope: SettingsScope;
  /** Absolute path. */
  file: string;
}

/** Where the settings files are looked for. */
export interface SettingsPlace {
  /** The project folder Claude Code would start in (project and local settings live in its `.claude/`). */
  cwd: string;
  /** For `CLAUDE_CONFIG_DIR` and `HOME`. */
  env: NodeJS.ProcessEnv;
  /** The managed (organization) settings file; default: the platform's `managed-settings.json`. */
  managedFile?: string;
}

/**
 * Claude Code's configuration folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @param env The environment.
 */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

/**
 * The user settings file: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
 *
 * @param env The environment.
 */
export function userSettingsFile(env: NodeJS.ProcessEnv): string {
  return join(claudeConfigDir(env), 'settings.json');
}

/**
 * The file-based managed settings of the platform (set by an organization; they override everything else).
 * Server-managed settings, the macOS plist and the Windows registry are not files and are not read.
 *
 * @param platform `process.platform`.
 */
export function managedSettingsFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/**
 * The settings files in Claude Code's precedence order, highest first: managed, local project
 * (`.claude/settings.local.json`), shared project (`.claude/settings.json`), user. (Command-line flags rank
 * between managed and local; they last one session and are not files.)
 *
 * @param place The project folder and the environment.
 */
export function settingsFiles(place: SettingsPlace): SettingsFile[] {
  return [
    { scope: 'managed', file: place.managedFile ?? managedSettingsFile() },
    { scope: 'local', file: join(place.cwd, '.claude', 'settings.local.json') },
    { scope: 'project', file: join(place.cwd, '.claude', 'settings.json') },
    { scope: 'user', file: userSettingsFile(place.env) },
  ];
}

/** What reading a settings file gave: its object, nothing (no such file), or why it cannot be used. */
export type SettingsRead =
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'missing' }
  | { kind: 'problem'; reason: string };

/**
 * Reads a settings file. A file that does not exist is `missing`; one that cannot be read, is not JSON or is
 * not a JSON object is a `problem` with the reason in a few words.
 *
 * @param file Absolute path.
 */
export function readSettings(file: string): SettingsRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', reason: `cannot be read (${code ?? String(error)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'problem', reason: `is not valid JSON (${(error as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'problem', reason: 'is not a JSON object' };
  }
  return { kind: 'object', value: value as Record<string, unknown> };
}
