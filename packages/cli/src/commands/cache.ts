import type { Command } from '../command-line/command.js';

/** `cctrail cache`: where the cache is and its size by part; `cache clear` removes it. */
export const cacheCommand: Command = {
  name: 'cache',
  summary: "show where cctrail's cache is and its size, or clear it",
  usage: 'cache [show|clear]',
  description: [
    "cctrail keeps caches outside the folders it writes: a report's redacted archive and the site builder's",
    "cache (so a rebuild re-renders only what changed), export's and stats' digests of unchanged sessions. The",
    'folder is $CCTRAIL_CACHE_DIR, else $XDG_CACHE_HOME/cctrail, else ~/.cache/cctrail, private to its user',
    '(mode 0700). `cctrail cache` prints where it is and the size of each part; `cctrail cache clear` removes',
    'what cctrail wrote there (and the folder once empty). A folder holding anything else is not a cctrail',
    'cache and is left alone; a cache a running report or export uses is not cleared.',
  ].join('\n'),
  options: [{ name: 'help', short: 'h', type: 'boolean', description: 'show this help' }],
  examples: [
    { command: 'cctrail cache', comment: 'where the cache is, and its size by part' },
    { command: 'cctrail cache clear', comment: 'remove it' },
  ],
  async run(context) {
    return (await import('./cache-run.js')).runCache(context);
  },
};
