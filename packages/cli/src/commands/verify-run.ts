import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ArchiveSessionSummary } from '@cctrail/core/archive';
import { readArchiveIndex, sessionKey } from '../archive/archive-input.js';
import { exportArchive } from '../archive/export-archive.js';
import { checkArchive, type Problem } from '../archive/verify-archive.js';
import type { CommandContext, Io } from '../command-line/command.js';
import { CliError, EXIT } from '../command-line/errors.js';
import { readFilters, selectSessions } from '../input/input.js';
import { cacheRoot } from '../runtime/cache-dir.js';
import { JobRunner } from '../runtime/job-runner.js';
import { plural } from '../terminal/diagnostic-output.js';
import { progressBar } from '../terminal/progress.js';
import { cliVersion } from '../version.js';

/** An index line as text, without the status an export gives it (a re-read reads every session from sources). */
function comparable(line: ArchiveSessionSummary): string {
  const { archived: _archived, ...rest } = line;
  return JSON.stringify(rest);
}

/**
 * Exports the archive's kept sources into a temporary folder and compares every session file with the
 * archive's: a session the archive kept from its sources must read again to the same bytes (in an archive of
 * sources only, to the same index line).
 */
async function rereadSessions(dir: string, io: Io, withFiles: boolean) {
  const selection = await selectSessions([dir], readFilters({}), io);
  const temporary = join(cacheRoot(io.env, io.cwd), `verify-${process.pid}`);
  const runner = new JobRunner(io.env);
  const progress = progressBar(io, selection.sessions.length, 'sessions');
  try {
    const result = await exportArchive({ selection, target: { dir: temporary }, runner, progress });
    const archived = await readArchiveIndex(dir);
    const files = new Map<string, string>();
    const kept = new Map<string, string>();
    for (const project of archived?.projects ?? [])
      for (const line of project.sessions) {
        files.set(sessionKey(project.slug, line.id), line.file);
        kept.set(sessionKey(project.slug, line.id), comparable(line));
      }
    const problems: Problem[] = [];
    let same = 0;
    const upgrade = archived?.generator.version !== cliVersion();
    for (const project of result.index.projects)
      for (const line of project.sessions) {
        const file = files.get(sessionKey(project.slug, line.id));
        if (file === undefined) {
          problems.push({
            file: line.file,
            kind: 'missing',
            detail: 'its kept transcripts are not in the index',
          });
          continue;
        }
        const [mine, again] = withFiles
          ? await Promise.all([
              readFile(join(dir, file)).catch(() => null),
              readFile(join(temporary, line.file)),
            ])
          : [Buffer.from(kept.get(sessionKey(project.slug, line.id)) ?? ''), Buffer.from(comparable(line))];
        if (mine?.equals(again)) same++;
        else
          problems.push({
            file,
            kind: 'corrupt',
            detail: upgrade
              ? `differs when read again by cctrail ${cliVersion()} (written by ${archived?.generator.version}: export into the archive again to upgrade it)`
              : 'differs from its kept transcripts read again',
          });
      }
    return { same, problems };
  } finally {
    progress.done();
    await runner.close();
    await rm(temporary, { recursive: true, force: true });
  }
}

/** Does the work of `cctrail verify` (see `verifyCommand`). */
export async function runVerify({ options, positionals, io }: CommandContext): Promise<number> {
  if (positionals.length !== 1) throw new CliError('verify needs one archive folder: cctrail verify DIR');
  const dir = resolve(io.cwd, positionals[0]!);
  const index = await readArchiveIndex(dir);
  const checked = index === null ? null : await checkArchive(dir);
  if (index === null || checked === null)
    throw new CliError(
      `${positionals[0]} is not an archive with a manifest (cctrail export -o DIR writes one)`,
    );
  const problems = [...checked.problems];
  let reread = 0;
  if (options['no-reread'] !== true && problems.length === 0 && checked.sources > 0) {
    const result = await rereadSessions(dir, io, checked.manifest.sessionFiles !== false);
    reread = result.same;
    problems.push(...result.problems);
  }
  for (const p of problems) io.stdout.write(`${p.kind.padEnd(9)} ${p.file}: ${p.detail}\n`);
  const mb = (checked.sourceBytes / 1e6).toFixed(1);
  io.stderr.write(
    `${plural(checked.files, 'file')} and ${plural(checked.sources, 'kept transcript')} (${mb} MB) checked` +
      `${reread > 0 ? `, ${plural(reread, 'session')} read again identical` : ''}: ` +
      `${problems.length === 0 ? 'no problem' : plural(problems.length, 'problem')}.\n`,
  );
  return problems.length === 0 ? EXIT.ok : EXIT.diagnostics;
}
