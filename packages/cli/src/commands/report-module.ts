import type { buildReport, inspectOutputFolder, pageThreads } from '@cctrail/report';
import { CliError, EXIT } from '../command-line/errors.js';

/** The part of `@cctrail/report` this command uses (its public entry point). */
export interface ReportModule {
  buildReport: typeof buildReport;
  inspectOutputFolder: typeof inspectOutputFolder;
  pageThreads: typeof pageThreads;
}

/** Loads `@cctrail/report` on demand: the other commands work without it. */
export async function loadReportModule(): Promise<ReportModule> {
  try {
    const module = (await import('@cctrail/report')) as Partial<ReportModule>;
    if (
      typeof module.buildReport !== 'function' ||
      typeof module.inspectOutputFolder !== 'function' ||
      typeof module.pageThreads !== 'function'
    )
      throw new Error('buildReport is missing');
    return module as ReportModule;
  } catch {
    throw new CliError('the report builder (@cctrail/report) is not available in this installation', {
      exitCode: EXIT.usage,
      hint: 'Build it with `pnpm --filter @cctrail/report build`, or use `cctrail export` for the JSON archive.',
    });
  }
}
