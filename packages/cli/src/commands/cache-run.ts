import type { CommandContext, Io } from '../command-line/command.js';
import { CliError, EXIT } from '../command-line/errors.js';
import { type CacheSurvey, clearCache, surveyCache } from '../runtime/cache-contents.js';
import { cacheRoot } from '../runtime/cache-dir.js';
import { liveLocksOf } from '../runtime/folder-lock.js';
import { styleFor } from '../terminal/terminal.js';

/** The subcommands of `cctrail cache`; without one it is `show`. */
const SUBCOMMANDS = ['show', 'clear'] as const;

/**
 * A size for people: bytes, then kB, MB and GB (powers of 1000, one decimal).
 *
 * @param bytes A number of bytes.
 */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A size as a multiple of another: `0.42 ×`. */
function ratioText(bytes: number, of: number): string {
  return of === 0 ? '— ×' : `${(bytes / of).toFixed(2)} ×`;
}

/** Where the cache folder is and why there. */
function whereText(io: Pick<Io, 'env' | 'cwd'>): string {
  const root = cacheRoot(io.env, io.cwd);
  if (io.env.CCTRAIL_CACHE_DIR) return `${root} ($CCTRAIL_CACHE_DIR)`;
  return io.env.XDG_CACHE_HOME ? `${root} ($XDG_CACHE_HOME/cctrail)` : root;
}

/** The lines of `cctrail cache`: the folder, each part with its size, each report's cache, the total. */
function showLines(survey: CacheSurvey, io: Io): string[] {
  const style = styleFor(io.stdout, io.env);
  const lines = [`${style.bold("cctrail's cache:")} ${whereText(io)}`];
  if (!survey.exists) return [...lines, '  empty (the folder does not exist)', ''];
  const width = Math.max(9, ...survey.parts.map((part) => part.name.length));
  for (const part of survey.parts) {
    lines.push(`  ${part.name.padEnd(width)}  ${sizeText(part.bytes).padStart(9)}  ${part.what}`);
    if (part.name !== 'reports') continue;
    for (const report of survey.reports) {
      const bytes = report.archive + report.site + report.other;
      lines.push(
        `  ${''.padEnd(width)}  ${sizeText(bytes).padStart(9)}    ` +
          `${report.output ?? '(an output folder not recorded)'}: archive ${sizeText(report.archive)}, site ${sizeText(report.site)}` +
          (report.input === null
            ? ''
            : `; ${ratioText(bytes, report.input)} its input (${sizeText(report.input)})`),
      );
    }
  }
  lines.push(`  ${'total'.padEnd(width)}  ${sizeText(survey.bytes).padStart(9)}`);
  const measured = survey.reports.filter((r) => r.input !== null);
  if (measured.length > 0) {
    const bytes = measured.reduce((n, r) => n + r.archive + r.site + r.other, 0);
    const input = measured.reduce((n, r) => n + (r.input ?? 0), 0);
    lines.push(
      `The reports' caches are ${ratioText(bytes, input)} their inputs (${sizeText(bytes)} for ${sizeText(input)}).`,
    );
  }
  if (survey.foreign.length > 0)
    lines.push(`It also holds files cctrail did not write (${survey.foreign.slice(0, 5).join(', ')}).`);
  lines.push('`cctrail cache clear` removes it; the next report then builds every page again.', '');
  return lines;
}

/** Does the work of `cctrail cache` (see `cacheCommand`). */
export async function runCache({ positionals, io }: CommandContext): Promise<number> {
  const [sub = 'show', ...rest] = positionals;
  if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number]) || rest.length > 0)
    throw new CliError(`cctrail cache takes show or clear, got ${positionals.join(' ')}`, {
      hint: 'Run `cctrail cache --help`.',
    });
  const root = cacheRoot(io.env, io.cwd);
  const survey = surveyCache(root);
  if (sub === 'show') {
    io.stdout.write(showLines(survey, io).join('\n'));
    return EXIT.ok;
  }
  if (!survey.exists) {
    io.stdout.write(`${whereText(io)} does not exist: nothing to clear.\n`);
    return EXIT.ok;
  }
  if (survey.foreign.length > 0)
    throw new CliError(`${root} is not a cctrail cache: it holds ${survey.foreign.slice(0, 5).join(', ')}`, {
      hint: 'cctrail removes only what it wrote. Check $CCTRAIL_CACHE_DIR, or remove the folder yourself.',
    });
  const busy = liveLocksOf(root);
  if (busy.length > 0)
    throw new CliError(
      `a cctrail run (process ${busy[0]?.pid}) is using the cache, writing to ${busy[0]?.folder}`,
      {
        hint: 'Clear it once that run has finished.',
      },
    );
  clearCache(root);
  io.stdout.write(`Cleared ${whereText(io)}: ${sizeText(survey.bytes)} removed.\n`);
  return EXIT.ok;
}
