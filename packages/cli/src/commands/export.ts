import type { Command } from '../command-line/command.js';
import { INPUT_OPTIONS } from '../command-line/input-options.js';

/** `cctrail export`: writes the normalized JSON archive. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'write the normalized JSON archive (index.json + one file per session)',
  usage: 'export [paths…] -o DIR [--redact]',
  description: [
    'Reads transcripts and writes DIR/index.json (projects → sessions with title, first prompt, times,',
    'counts, tokens and duplicate-of) and one normalized file per session under DIR/sessions/. Nothing is',
    'dropped: every input line is an entry, a metadata record, or a diagnostic carrying its raw text.',
    'Files are written atomically and only when their bytes change, so a re-run over unchanged input',
    'rewrites nothing. With -o - the archive is streamed as NDJSON: one session per line, then the index.',
    'The files follow the JSON Schemas in the package (schema/index.schema.json, schema/session.schema.json).',
    'The archive holds the transcripts as written, secrets included, unless --redact is given (the same',
    'redaction as `cctrail report`).',
    '',
    'An archive never forgets: every transcript file read is kept byte for byte, compressed, under',
    'DIR/sources/ (only new bytes are added when a file grows), and a session whose transcripts are gone',
    '(Claude Code deletes them after cleanupPeriodDays) stays, marked "missing" with when it was last seen.',
    'A filtered export (-p, -s, --since) updates the sessions it selects and leaves the others as they are.',
    'Nothing is removed unless --prune is given. An archive is also an input: `cctrail report DIR`,',
    '`stats DIR`, `export DIR -o OTHER` read its kept sources; several archives given together are merged.',
    'With --redact no sources are kept (the archive is meant for sharing). With --sources-only no session files',
    'are written: the archive holds the kept transcripts, index.json and manifest.json (about a quarter of the',
    'input), and every command reads it as any archive; an archive made so stays so.',
  ].join('\n'),
  options: [
    {
      name: 'output',
      short: 'o',
      type: 'string',
      value: 'DIR',
      description: 'output folder, or - for NDJSON on stdout',
    },
    {
      name: 'redact',
      type: 'boolean',
      description:
        'replace secrets with [REDACTED:<kind>] as `report` does (off by default); keeps no sources',
    },
    {
      name: 'prune',
      type: 'boolean',
      description: 'remove the sessions whose transcripts are missing from the input (listed first)',
    },
    {
      name: 'sources-only',
      type: 'boolean',
      description: 'keep the transcripts and the index only, no session files (a quarter of the input)',
    },
    {
      name: 'force',
      type: 'boolean',
      description: 'write into a non-empty folder that is not an archive (its files are left as they are)',
    },
    ...INPUT_OPTIONS,
  ],
  examples: [
    { command: 'cctrail export -o ~/claude-archive', comment: 'everything under ~/.claude/projects, kept' },
    { command: 'cctrail export laptop-archive desktop-archive -o all', comment: 'merge two archives' },
    { command: 'cctrail export ~/.claude/projects/-home-me-app -o app', comment: 'one project' },
    {
      command: "cctrail export --since 7d -o - | jq -r 'select(.entries) | .id'",
      comment: 'last week as NDJSON',
    },
  ],
  async run(context) {
    return (await import('./export-run.js')).runExport(context);
  },
};
