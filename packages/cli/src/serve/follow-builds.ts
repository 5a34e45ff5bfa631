/**
 * The loop of `cctrail serve` and `cctrail report --watch`: watch the inputs, rebuild the report when they
 * change (the report's incremental rebuild: unchanged sessions are not read again), say what happened as it
 * happens, and stop cleanly on Ctrl-C or SIGTERM: the watcher closed, the rebuild under way finished.
 */

import { Writable } from 'node:stream';
import type { Io } from '../command-line/command.js';
import { CliError } from '../command-line/errors.js';
import { styleFor } from '../terminal/terminal.js';
import { type Follower, type FollowOptions, followInputs } from './follow-inputs.js';

/** Options of `followBuilds`. */
export interface FollowBuildsOptions {
  /** The folders or files the report is built from. */
  paths: readonly string[];
  io: Io;
  /** Runs the report once, writing to the given `Io`; resolves to its exit code. */
  build: (io: Io) => Promise<number>;
  /** After a rebuild (`ok`: it succeeded): a few words on what it changed (e.g. "3 pages changed"). */
  rebuilt?: (ok: boolean) => string | Promise<string>;
  /** Stops the loop when it settles (tests); else SIGINT or SIGTERM does. */
  stop?: Promise<void>;
  /** Called once the watcher is ready, with it (to ask for rebuilds). */
  ready?: (follower: Follower) => void;
  /** Takes changed files before they are rebuilt (see `FollowOptions.absorb`). */
  absorb?: FollowOptions['absorb'];
  /** Called as a rebuild starts. */
  starting?: () => void;
  /** When stopping: files whose rebuild was put off, rebuilt before the loop ends (the site left complete). */
  finish?: () => readonly string[];
}

/**
 * Follows the inputs until stopped, rebuilding as they change. Rebuilds write only a line each; the output
 * of one that fails is shown whole.
 *
 * @param options What to watch and how to build.
 * @returns The exit code (0).
 */
export async function followBuilds(options: FollowBuildsOptions): Promise<number> {
  const { io } = options;
  const style = styleFor(io.stderr, io.env);
  const stamp = () => new Date().toLocaleTimeString('en-GB');
  const follower = await followInputs({
    paths: options.paths,
    ...(options.absorb ? { absorb: options.absorb } : {}),
    rebuild: async (changed) => {
      options.starting?.();
      const started = performance.now();
      io.stderr.write(`${stamp()} ${describeChange(changed)}; rebuilding…\n`);
      const quiet = capturingIo(io);
      const code = await options.build(quiet.io).catch((error: unknown) => {
        throw new RebuildError(error, quiet.text());
      });
      if (code !== 0) io.stderr.write(quiet.text());
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const what = await options.rebuilt?.(code === 0);
      io.stderr.write(`${stamp()} rebuilt in ${seconds} s${what ? `; ${what}` : ''}\n`);
    },
    onError: (error) => {
      const output = error instanceof RebuildError ? error.output : '';
      const cause = error instanceof RebuildError ? error.cause : error;
      io.stderr.write(output);
      const message = cause instanceof Error ? cause.message : String(cause);
      io.stderr.write(`${stamp()} ${style.red('rebuild failed:')} ${message}\n`);
      if (cause instanceof CliError && cause.hint) io.stderr.write(`${cause.hint}\n`);
      io.stderr.write('Still watching: the next change rebuilds again.\n');
    },
  });
  io.stderr.write(`Watching ${options.paths.join(', ')} for changes; Ctrl-C stops.\n`);
  options.ready?.(follower);
  await (options.stop ?? signalled());
  const rest = options.finish?.() ?? [];
  if (rest.length > 0) {
    io.stderr.write('Stopping: rebuilding the sessions followed live…\n');
    follower.queue(rest);
    await follower.idle();
  }
  io.stderr.write('Stopping: finishing the rebuild under way, if any…\n');
  await follower.close();
  io.stderr.write('Stopped.\n');
  return 0;
}

/** A rebuild's error with what it had written. */
class RebuildError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly output: string,
  ) {
    super('rebuild failed');
  }
}

function describeChange(changed: readonly string[]): string {
  const first = changed[0] ?? '';
  return changed.length === 1 ? `changed: ${first}` : `${changed.length} files changed (${first}, …)`;
}

/** Resolves on the first SIGINT or SIGTERM; while waiting, these signals no longer end the process. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const on = () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve();
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** An `Io` whose output is kept, to be shown only when a rebuild fails. */
function capturingIo(io: Io): { io: Io; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { io: { ...io, stdout: sink, stderr: sink }, text: () => chunks.join('') };
}
