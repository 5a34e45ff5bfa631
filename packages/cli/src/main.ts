import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { flag, formatOptions, parseCommandLine } from './command-line/args.js';
import type { Command, Io } from './command-line/command.js';
import { CliError, EXIT, fsReason } from './command-line/errors.js';
import { cacheCommand } from './commands/cache.js';
import { exportCommand } from './commands/export.js';
import { hookCommand } from './commands/hook.js';
import { reportCommand } from './commands/report.js';
import { serveCommand } from './commands/serve.js';
import { statsCommand } from './commands/stats.js';
import { verifyCommand } from './commands/verify.js';
import { styleFor } from './terminal/terminal.js';
import { cliVersion } from './version.js';

/**
 * Every command of `cctrail`, in the order help lists them. A command's module holds its name, options and help
 * only; what does its work is loaded when it runs, so that `--help`, `--version` and each command load no other
 * command's code.
 */
export const COMMANDS: readonly Command[] = [
  exportCommand,
  statsCommand,
  reportCommand,
  serveCommand,
  verifyCommand,
  hookCommand,
  cacheCommand,
];

/** The `Io` of the running process. */
function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * Runs `cctrail` with the given arguments. This is the one error boundary: a `CliError` becomes its message
 * and exit code, anything else a one-line "internal error" (exit 2) — never a stack trace, unless
 * `CCTRAIL_DEBUG` is set.
 *
 * @param argv Arguments after `node cctrail`.
 * @param io Where to write and the environment.
 * @returns The exit code.
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const style = styleFor(io.stderr, io.env);
    if (error instanceof CliError) {
      io.stderr.write(`${style.red('cctrail:')} ${error.message}\n`);
      if (error.hint) io.stderr.write(`${error.hint}\n`);
      return error.exitCode;
    }
    const fs = error as NodeJS.ErrnoException;
    if (fs && typeof fs.code === 'string' && typeof fs.path === 'string') {
      io.stderr.write(`${style.red('cctrail:')} ${fs.path}: ${fsReason(fs)}\n`);
      return EXIT.usage;
    }
    io.stderr.write(
      `${style.red('cctrail: internal error:')} ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (io.env.CCTRAIL_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    else io.stderr.write('This is a bug in cctrail; run with CCTRAIL_DEBUG=1 for details and report it.\n');
    return EXIT.usage;
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h') {
    io.stdout.write(mainHelp());
    return EXIT.ok;
  }
  if (first === '--version' || first === '-v' || first === '-V') {
    io.stdout.write(`${cliVersion()}\n`);
    return EXIT.ok;
  }
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout.write(mainHelp());
      return EXIT.ok;
    }
    io.stdout.write(commandHelp(findCommand(topic)));
    return EXIT.ok;
  }
  const firstRun = isDefaultRun(first, io) && !COMMANDS.some((c) => c.name === first);
  const command = firstRun ? reportCommand : findCommand(first as string);
  const { options, positionals } = parseCommandLine(firstRun ? argv : rest, command.options, command.name);
  if (flag(options, 'help')) {
    io.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  if (firstRun) (await import('./commands/first-run.js')).checkDefaultInput(positionals, io);
  return command.run({ options, positionals, io, ...(firstRun ? { firstRun } : {}) });
}

/**
 * Whether a command line without a command name means `cctrail report`: no arguments, options only
 * (`cctrail --open`), or a first argument that is a path on disk (`cctrail ./claude-export`).
 *
 * @param first The first argument, if any.
 * @param io For the working directory.
 */
function isDefaultRun(first: string | undefined, io: Pick<Io, 'cwd'>): boolean {
  if (first === undefined) return true;
  if (first.startsWith('-')) return first !== '--';
  return existsSync(resolve(io.cwd, first));
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  if (name.startsWith('-')) {
    throw new CliError(`unknown option ${name}`, { hint: 'Run `cctrail --help` for the commands.' });
  }
  throw new CliError(`unknown command ${name}`, {
    hint: `Commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run \`cctrail --help\`.`,
  });
}

/** The text of `cctrail --help`. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `cctrail ${cliVersion()} — Claude Code session transcripts as a JSON archive, stats and a report`,
    '',
    'Usage: cctrail <command> [paths…] [options]',
    '       cctrail [paths…] [report options]   (no command: `cctrail report`, then the next steps)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Paths: a projects folder, one project folder, or .jsonl session files.',
    'Default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects.',
    '',
    'Options:',
    '  -h, --help     show help (also `cctrail <command> --help`)',
    '  -v, --version  show the version',
    '',
    'Examples:',
    '  npx cctrail                  # report of ~/.claude/projects into ./cctrail-report',
    '  npx cctrail --open           # the same, then open it in the default browser',
    '  cctrail stats',
    '  cctrail export -o archive',
    '  cctrail report --short-home',
    '  cctrail hook install         # archive every session when it ends',
    '',
    'Exit codes: 0 done; 1 done, but the input has error diagnostics and --strict was given;',
    '2 bad usage or unreadable input.',
    '',
  ].join('\n');
}

/** The text of `cctrail <command> --help`. */
export function commandHelp(command: Command): string {
  const width = Math.max(...command.examples.map((e) => e.command.length));
  return [
    `Usage: cctrail ${command.usage}`,
    '',
    command.description,
    '',
    'Options:',
    formatOptions(command.options),
    '',
    'Examples:',
    ...command.examples.map((e) => `  ${e.command.padEnd(width)}  # ${e.comment}`),
    '',
  ].join('\n');
}
