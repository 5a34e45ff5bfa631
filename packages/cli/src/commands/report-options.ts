import type { OptionSpec } from '../command-line/args.js';
import { INPUT_OPTIONS } from '../command-line/input-options.js';

/** The options of `cctrail report` (also what `serve` and a report's rebuild in a child process read). */
export const REPORT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'output',
    short: 'o',
    type: 'string',
    value: 'DIR',
    description: 'output folder (default ./cctrail-report)',
  },
  {
    name: 'base',
    type: 'string',
    value: 'PATH',
    description: 'URL path the site is served under, e.g. /repo/',
  },
  { name: 'title', type: 'string', value: 'TEXT', description: 'title of the report' },
  {
    name: 'repo',
    type: 'string',
    value: 'URL',
    description: 'repository URL: commit SHAs in `git commit` outputs link to its commits',
  },
  { name: 'no-redact', type: 'boolean', description: 'keep secrets (only for reports you do not share)' },
  {
    name: 'force',
    type: 'boolean',
    description:
      'write into a non-empty folder that is not a cctrail report (its files are left as they are)',
  },
  {
    name: 'prune',
    type: 'boolean',
    description: 'drop the sessions whose transcripts are gone (kept, marked, otherwise)',
  },
  { name: 'open', type: 'boolean', description: 'open the report in the default browser when it is built' },
  {
    name: 'watch',
    type: 'boolean',
    description:
      'then follow the transcripts until Ctrl-C: appends drawn into their pages, sessions rebuilt once quiet',
  },
  {
    name: 'settle',
    type: 'string',
    value: 'S',
    description: 'with --watch: seconds a session appended to stays quiet before it is rebuilt (default 20)',
  },
  {
    name: 'short-home',
    type: 'boolean',
    description: 'write /home/<user>/ and /Users/<user>/ paths as ~/',
  },
  ...INPUT_OPTIONS,
];
