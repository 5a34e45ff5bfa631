import type { Command } from '../command-line/command.js';
import { REPORT_OPTIONS } from './report-options.js';

/** `cctrail report`: a static HTML report, secrets redacted. */
export const reportCommand: Command = {
  name: 'report',
  summary: 'build a static HTML report (secrets redacted)',
  usage: 'report [paths…] [-o DIR] [--base PATH] [--title TEXT] [--repo URL] [--no-redact] [--short-home]',
  description: [
    'Exports the sessions, redacting secrets in every string (API keys, tokens, private keys, JWTs,',
    'passwords in URLs, SECRET=/TOKEN=/PASSWORD= assignments), to an archive in a cache folder outside DIR',
    '($CCTRAIL_CACHE_DIR, else ~/.cache/cctrail: a rebuild re-exports only changed sessions), then builds a',
    'static site into DIR (default ./cctrail-report) that works from any folder or web server and makes no',
    'outside requests. Prints the path of index.html. Everything in DIR can be published.',
    '',
    'DIR must be new, empty, or a report cctrail built: a rebuild removes only pages its earlier build wrote',
    'that no longer exist, and any other file in DIR is left as it is. A folder that is not a report is',
    'refused unless --force; the input folders, the cache and any folder holding them are always refused.',
    'The report keeps every session it has shown: one whose transcripts Claude Code deleted stays, marked',
    '"only in the archive" (--prune removes those). A cctrail archive can be given as input.',
  ].join('\n'),
  options: REPORT_OPTIONS,
  examples: [
    { command: 'cctrail report', comment: 'everything under ~/.claude/projects into ./cctrail-report' },
    { command: 'cctrail report ./claude-export --open', comment: 'a copy of the transcripts, then open it' },
    {
      command: 'cctrail report -p myapp -o site --base /myapp-log/ --short-home',
      comment: 'for GitHub Pages',
    },
  ],
  async run(context) {
    return (await import('./report-run.js')).runReport(context);
  },
};
