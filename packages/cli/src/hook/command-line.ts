/**
 * The shell command `cctrail hook install` writes into Claude Code's settings: it runs `cctrail hook run` with
 * the archive folder, through the node and the cctrail that installed it when those stay where they are, else
 * through `npx` with the version pinned.
 */

/** Folders of one-off package runners (`npx`, `pnpm dlx`, `bunx`): a binary inside them may vanish. */
const TEMPORARY_INSTALL = [/[\\/]_npx[\\/]/, /[\\/]dlx[\\/-]/, /[\\/]bunx-/];

/** What the hook's command is made of. */
export interface HookCommandParts {
  /** Absolute path of the node that runs cctrail (`process.execPath`). */
  node: string;
  /** Absolute path of the cctrail binary that runs (`process.argv[1]`), if known. */
  bin: string | undefined;
  /** cctrail's version, for the `npx` form. */
  version: string;
  /** Absolute path of the archive folder. */
  archive: string;
}

/**
 * Quotes a word for a POSIX shell: as it is when it holds only safe characters, else in single quotes
 * (a single quote inside becomes `'\''`).
 *
 * @param word Any text.
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Whether a cctrail binary lives in a one-off runner's cache (`…/_npx/…`, pnpm's `dlx`, `bunx-…`), which
 * may be emptied at any time: then the hook runs cctrail through `npx` instead.
 *
 * @param bin Absolute path of the binary.
 */
export function isTemporaryInstall(bin: string): boolean {
  return TEMPORARY_INSTALL.some((pattern) => pattern.test(bin));
}

/**
 * The command of the SessionEnd hook: `'<node>' '<cctrail>' hook run --archive '<DIR>'` for a stable install,
 * else `npx --yes cctrail@<version> hook run --archive '<DIR>'`. Every path is quoted for a shell; when the
 * binary's path does not name cctrail, ` # cctrail` ends the command (a shell comment) so it can be recognised.
 *
 * @param parts The node, the binary, the version and the archive folder.
 * @example
 * ```ts
 * hookShellCommand({ node: '/usr/bin/node', bin: '/usr/lib/node_modules/cctrail/dist/bundle/bin.js',
 *   version: '0.2.0', archive: '/home/me/claude-archive' });
 * // "/usr/bin/node /usr/lib/node_modules/cctrail/dist/bundle/bin.js hook run --archive /home/me/claude-archive"
 * ```
 */
export function hookShellCommand(parts: HookCommandParts): string {
  const runner =
    parts.bin !== undefined && !isTemporaryInstall(parts.bin)
      ? `${shellQuote(parts.node)} ${shellQuote(parts.bin)}`
      : `npx --yes cctrail@${shellQuote(parts.version)}`;
  const command = `${runner} hook run --archive ${shellQuote(parts.archive)}`;
  // A binary outside a folder named cctrail (a build in a checkout) is named in a comment, so that
  // `hook uninstall` still knows the entry for its own.
  return /cctrail/.test(runner) ? command : `${command} # cctrail`;
}

/**
 * Whether a hook command is one `cctrail hook install` wrote: it names cctrail and runs `hook run`.
 *
 * @param command The `command` of a hook entry.
 */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && /cctrail/.test(command) && /\shook\s+run(\s|$)/.test(command);
}
