import type { OptionSpec } from './args.js';

/** Options every command that reads transcripts accepts. */
export const INPUT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'project',
    short: 'p',
    type: 'string',
    multiple: true,
    value: 'NAME',
    description: 'only projects whose folder name contains NAME (case-insensitive)',
  },
  {
    name: 'session',
    short: 's',
    type: 'string',
    multiple: true,
    value: 'ID',
    description: 'only sessions whose id starts with ID',
  },
  {
    name: 'since',
    type: 'string',
    value: 'DATE',
    description: 'only sessions active on or after DATE (2025-01-31, an ISO time, or 7d / 12h)',
  },
  { name: 'until', type: 'string', value: 'DATE', description: 'only sessions active on or before DATE' },
  { name: 'strict', type: 'boolean', description: 'exit with 1 when the input has error diagnostics' },
  {
    name: 'verbose',
    type: 'boolean',
    description:
      'list every diagnostic as file:line  severity  message  [code] (report: and its steps, timed)',
  },
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
];
