import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Io } from '../command-line/command.js';

/**
 * The default input: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`.
 *
 * @param env The environment to read `CLAUDE_CONFIG_DIR` and `HOME` from.
 */
export function defaultProjectsFolder(env: NodeJS.ProcessEnv): string {
  if (env.CLAUDE_CONFIG_DIR) return join(env.CLAUDE_CONFIG_DIR, 'projects');
  return join(env.HOME || homedir(), '.claude', 'projects');
}

/**
 * The absolute paths a command reads: those given, or the default projects folder.
 *
 * @param paths Paths from the command line; empty for the default folder.
 * @param io For the environment and the working directory.
 */
export function inputPaths(paths: readonly string[], io: Pick<Io, 'env' | 'cwd'>): string[] {
  return paths.length === 0 ? [defaultProjectsFolder(io.env)] : paths.map((p) => resolve(io.cwd, p));
}
