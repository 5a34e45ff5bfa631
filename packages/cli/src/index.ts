/**
 * cctrail — the command-line tool. Most people use the `cctrail` binary; this module exposes the same
 * pieces for programs and tests.
 *
 * @example
 * ```ts
 * import { main } from 'cctrail';
 * process.exitCode = await main(['stats', '--json']);
 * ```
 */
export { type OptionSpec, parseCommandLine } from './command-line/args.js';
export type { Command, CommandContext, Io } from './command-line/command.js';
export { CliError, EXIT } from './command-line/errors.js';
export { NameAllocator, sanitizeId } from './files/sanitize.js';
export { COMMANDS, commandHelp, main, mainHelp } from './main.js';
export { shortenHome, shortenHomePaths } from './privacy/home-paths.js';
export { redactSecrets, redactText, SECRET_PATTERNS } from './privacy/redact.js';
