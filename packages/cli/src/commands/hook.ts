import type { Command } from '../command-line/command.js';

/** `cctrail hook`: archives every Claude Code session when it ends, through a SessionEnd hook. */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'archive every session when it ends (a Claude Code SessionEnd hook)',
  usage: 'hook [install|uninstall|status|run] [--archive DIR] [--settings FILE]',
  description: [
    'Claude Code deletes transcripts older than cleanupPeriodDays (30 by default) when it starts.',
    '`hook install` adds a SessionEnd hook to its user settings ($CLAUDE_CONFIG_DIR/settings.json, else',
    '~/.claude/settings.json) that runs `cctrail hook run --archive DIR` when a session ends: the session is',
    'exported into DIR (default ~/claude-archive), as `cctrail export` would. Running it again updates the',
    "entry; every other setting and hook is kept. `hook uninstall` removes only cctrail's entry. `hook` or",
    '`hook status` says whether it is installed and how long Claude Code keeps transcripts. The hook never',
    'fails Claude Code: a failed export is a line on stderr and in <cache>/hook.log.',
  ].join('\n'),
  options: [
    {
      name: 'archive',
      type: 'string',
      value: 'DIR',
      description: 'archive folder the hook exports into (default ~/claude-archive)',
    },
    {
      name: 'settings',
      type: 'string',
      value: 'FILE',
      description: 'Claude Code settings file to edit (default ~/.claude/settings.json)',
    },
    { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  ],
  examples: [
    { command: 'cctrail hook install', comment: 'archive every session into ~/claude-archive when it ends' },
    { command: 'cctrail hook install --archive ~/notes/claude', comment: 'into another folder' },
    { command: 'cctrail hook', comment: 'is it installed? how long are transcripts kept?' },
    { command: 'cctrail hook uninstall', comment: 'remove the hook, nothing else' },
  ],
  async run(context) {
    return (await import('./hook-run.js')).runHook(context);
  },
};
