import type { OptionSpec, OptionValues } from './args.js';

/** Where a command writes and what it knows of its environment. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Where `cctrail hook run` reads its input; the process's stdin (opened only then) when not given. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** What a command receives: its parsed options and positionals, and where to write. */
export interface CommandContext {
  options: OptionValues;
  positionals: string[];
  io: Io;
  /** The command runs as `cctrail` without a command name (`npx cctrail`): it says what to do next. */
  firstRun?: boolean;
}

/** One entry of the command table. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage line without the leading `cctrail`, e.g. `export [paths…] -o DIR`. */
  usage: string;
  /** A paragraph or two for `--help`. */
  description: string;
  options: readonly OptionSpec[];
  /** Example command lines with a comment each. */
  examples: readonly { command: string; comment: string }[];
  /** Does the work; resolves to the exit code. Throws `CliError` for usage and input errors. */
  run(context: CommandContext): Promise<number>;
}
