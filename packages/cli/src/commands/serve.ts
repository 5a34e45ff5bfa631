import type { Command } from '../command-line/command.js';
import { REPORT_OPTIONS } from './report-options.js';

/** `cctrail serve`: the report, served on this machine, rebuilt and updated in open pages as sessions change. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'build the report, serve it on 127.0.0.1 and follow the sessions live',
  usage: 'serve [paths…] [-o DIR] [--port N] [--host ADDR] [report options]',
  description: [
    'Builds the report like `cctrail report` (secrets redacted), serves DIR on http://127.0.0.1 (a free port',
    'unless --port), and watches the transcripts. When Claude Code appends to a session, only the new lines are',
    "read, redacted and drawn by the report's renderer: at the end of the session's last transcript page, in the",
    'open pages without a reload. Once the session has been quiet for --settle seconds (and at once for a new session or agent',
    'file, a rewind or a compaction) its pages are rebuilt (unchanged sessions are reused) and the open pages',
    'that changed redraw in place, keeping their place; a session page whose session is running says "Live".',
    'The server is read-only, serves only the files of DIR, and answers only requests that name this machine.',
    'The live script exists only in the pages it serves: the files in DIR are the same as `cctrail report`',
    'writes. Ctrl-C stops it.',
  ].join('\n'),
  options: [
    // The report's options but `--base` (the server serves the site at its root) and `--watch` (it always does).
    ...REPORT_OPTIONS.filter((o) => !['base', 'watch', 'settle', 'help'].includes(o.name)),
    { name: 'port', type: 'string', value: 'N', description: 'port to listen on (default: a free one)' },
    {
      name: 'host',
      type: 'string',
      value: 'ADDR',
      description: 'address to listen on (default 127.0.0.1; others let other machines read the report)',
    },
    {
      name: 'settle',
      type: 'string',
      value: 'S',
      description: 'seconds a session appended to stays quiet before its pages are rebuilt (default 20)',
    },
    ...REPORT_OPTIONS.filter((o) => o.name === 'help'),
  ],
  examples: [
    { command: 'cctrail serve', comment: 'follow ~/.claude/projects on a free port' },
    {
      command: 'cctrail serve -p myapp --port 8080 --open',
      comment: 'one project, port 8080, open a browser',
    },
  ],
  async run(context) {
    return (await import('./serve-run.js')).runServe(context);
  },
};
