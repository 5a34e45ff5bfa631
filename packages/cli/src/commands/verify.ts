import type { Command } from '../command-line/command.js';

/** `cctrail verify`: checks an archive folder. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check an archive: every checksum, and that its kept transcripts read again to its sessions',
  usage: 'verify ARCHIVE [--no-reread]',
  description: [
    'Checks an archive folder written by `cctrail export`: every file its manifest.json lists is there with',
    'its size and SHA-256, every kept transcript decompresses to the bytes that were kept, and (unless',
    '--no-reread) every session read again from its kept transcripts gives the session file the archive holds.',
    'Lists each file that is missing, corrupt or different, and exits with 1 when there is any.',
  ].join('\n'),
  options: [
    {
      name: 'no-reread',
      type: 'boolean',
      description: 'check the checksums only, not that the sessions read again to their files',
    },
    { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  ],
  examples: [{ command: 'cctrail verify ~/claude-archive', comment: 'check an archive' }],
  async run(context) {
    return (await import('./verify-run.js')).runVerify(context);
  },
};
