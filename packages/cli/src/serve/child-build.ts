/**
 * The rebuilds of `cctrail serve` and `report --watch`, each in a child process: `cctrail report` again, with the
 * options it was given. A build in the long-running process itself left memory behind each time (its worker
 * threads' and the builder's native memory, which the process kept though its JavaScript heap was back to where
 * it started): an hour of a session followed live grew it by half. A child's memory goes back with it. The child
 * is in a process group of its own: a Ctrl-C in the terminal stops the parent, which lets the rebuild under way
 * finish (the site left complete).
 */

import { spawn } from 'node:child_process';
import type { OptionSpec, OptionValues } from '../command-line/args.js';
import type { Io } from '../command-line/command.js';

/**
 * A build function running `cctrail report` in a child process.
 *
 * @param bin The script of this command line (`process.argv[1]`).
 * @param options The options of the report, as parsed.
 * @param specs The report's option specs (to write the options back).
 * @param positionals The inputs.
 * @returns Runs one build, its output written to the given `Io`; resolves to its exit code.
 */
export function childBuild(
  bin: string,
  options: OptionValues,
  specs: readonly OptionSpec[],
  positionals: readonly string[],
): (io: Io) => Promise<number> {
  const args = ['report', ...optionArgs(options, specs), '--', ...positionals];
  return (io) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd: io.cwd,
        env: io.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      child.stdout.on('data', (chunk) => io.stdout.write(chunk));
      child.stderr.on('data', (chunk) => io.stderr.write(chunk));
      child.once('error', reject);
      child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
}

/**
 * Options as arguments again (`--name=value`, which takes a value that starts with a dash, `--flag`, a list's
 * values one by one); false and absent left out.
 */
export function optionArgs(options: OptionValues, specs: readonly OptionSpec[]): string[] {
  const args: string[] = [];
  for (const spec of specs) {
    const value = options[spec.name];
    if (value === undefined || value === false) continue;
    if (value === true) args.push(`--${spec.name}`);
    else for (const one of Array.isArray(value) ? value : [value]) args.push(`--${spec.name}=${one}`);
  }
  return args;
}
