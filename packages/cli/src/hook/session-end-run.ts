import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseCommandLine } from '../command-line/args.js';
import type { Io } from '../command-line/command.js';
import { CliError, EXIT } from '../command-line/errors.js';
import { exportCommand } from '../commands/export.js';
import { privateCache } from '../runtime/cache-contents.js';
import { cacheRoot } from '../runtime/cache-dir.js';

/**
 * `cctrail hook run`: what Claude Code's SessionEnd hook runs. It reads the hook's JSON from stdin and exports
 * the session that just ended into the archive, as `cctrail export <project folder> -s <session> -o DIR`
 * would. It never fails Claude Code: a failed export is a line on stderr and in the hook log, and the exit code
 * is 0; only input that names no session is an error (exit 2).
 */

/** What cctrail reads of a SessionEnd hook's input (Claude Code also passes `permission_mode`, …). */
export interface SessionEndInput {
  sessionId: string;
  /** The session's main transcript, `<projects>/<project>/<session>.jsonl`; empty when none was written. */
  transcriptPath: string;
  /** Why the session ended: `clear`, `logout`, `prompt_input_exit`, `bypass_permissions_disabled`, `other`. */
  reason: string | null;
}

/**
 * Reads the hook's JSON from a stream: it stops as soon as what came is a complete JSON value, so a caller
 * that never closes the stream does not keep the hook waiting.
 *
 * @param stream The hook's stdin.
 * @returns The parsed value.
 */
export async function readHookJson(stream: NodeJS.ReadableStream): Promise<unknown> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      // Not complete yet: read on.
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(
      text.trim() === '' ? 'hook run got no input on stdin' : 'hook run got input that is not JSON',
      { hint: "Claude Code runs it with the SessionEnd hook's JSON on stdin; see `cctrail hook install`." },
    );
  }
}

/**
 * Checks a SessionEnd hook's input: it must name the session (`session_id`) and its transcript
 * (`transcript_path`, a string, possibly empty). Throws a `CliError` otherwise.
 *
 * @param value The parsed stdin.
 */
export function sessionEndInput(value: unknown): SessionEndInput {
  const input = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const sessionId = input.session_id;
  const transcriptPath = input.transcript_path;
  if (typeof sessionId !== 'string' || sessionId === '' || typeof transcriptPath !== 'string') {
    throw new CliError('hook run needs the hook input\'s "session_id" and "transcript_path"', {
      hint: 'Claude Code passes them to SessionEnd hooks on stdin.',
    });
  }
  return { sessionId, transcriptPath, reason: typeof input.reason === 'string' ? input.reason : null };
}

/**
 * The hook log: one line per `hook run`, in cctrail's cache folder (`<cache>/hook.log`).
 *
 * @param io For the environment and the working directory.
 */
function hookLogFile(io: Pick<Io, 'env' | 'cwd'>): string {
  privateCache(cacheRoot(io.env, io.cwd));
  return join(cacheRoot(io.env, io.cwd), 'hook.log');
}

async function log(io: Io, line: string): Promise<void> {
  const file = hookLogFile(io);
  try {
    await mkdir(dirname(file), { recursive: true });
    await appendFile(file, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // The log is a convenience: a hook must not fail because of it.
  }
}

/**
 * Exports the session a SessionEnd hook names into the archive, with the export command's own code, and
 * logs what happened. Resolves to 0 whatever the export did.
 *
 * @param input The hook's input.
 * @param archive The archive folder, absolute.
 * @param io Where to write.
 */
export async function archiveEndedSession(input: SessionEndInput, archive: string, io: Io): Promise<number> {
  const what = `${input.sessionId}${input.reason ? ` (${input.reason})` : ''}`;
  if (input.transcriptPath === '' || !existsSync(input.transcriptPath)) {
    const why =
      input.transcriptPath === ''
        ? 'Claude Code wrote no transcript (is cleanupPeriodDays 0?)'
        : `${input.transcriptPath} does not exist`;
    io.stderr.write(`cctrail hook: nothing to archive for ${what}: ${why}\n`);
    await log(io, `${what} skipped: ${why}`);
    return EXIT.ok;
  }
  const args = ['-o', archive, `--session=${input.sessionId}`, '--', dirname(input.transcriptPath)];
  try {
    const { options, positionals } = parseCommandLine(args, exportCommand.options, exportCommand.name);
    const code = await exportCommand.run({ options, positionals, io });
    await log(io, `${what} archived into ${archive} (export exit ${code})`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`cctrail hook: could not archive ${what} into ${archive}: ${message}\n`);
    await log(io, `${what} failed: ${message}`);
  }
  return EXIT.ok;
}
