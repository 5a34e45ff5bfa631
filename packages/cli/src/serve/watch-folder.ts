/**
 * `cctrail report --watch`: the live loop of `cctrail serve` (`followLive`) into the report folder, without a
 * server. An append to a session whose pages the report has is read, redacted and drawn by the report's renderer
 * into the session's last transcript page, and only that page is written; the session is rebuilt once it has
 * been quiet for a while (the report's rebuild writes only the pages that changed, and the index), and at once
 * when the append path cannot show a change (a new session or agent file, a rewind, a compaction).
 */

import { realpathSync } from 'node:fs';
import type { Io } from '../command-line/command.js';
import type { Transform } from '../privacy/transform.js';
import { followLive } from './follow-live.js';
import { LivePages } from './live-pages.js';
import { liveRenderer } from './live-window.js';

/** Options of `watchFolder`. */
export interface WatchFolderOptions {
  paths: readonly string[];
  io: Io;
  /** The report folder, built once already. */
  outDir: string;
  /** Runs the report's (incremental) build once; resolves to its exit code. */
  build: (io: Io) => Promise<number>;
  /** Makes the report's privacy transform (one per live window). */
  privacy: () => Transform;
  /** Quiet time after the last append before a session is rebuilt (ms). */
  settleMs: number;
  /** Stops the loop (tests); else SIGINT or SIGTERM does. */
  stop?: Promise<void>;
}

/**
 * Follows the inputs into the report folder until stopped.
 *
 * @param options What to follow, and the folder.
 * @returns The exit code (0).
 */
export async function watchFolder(options: WatchFolderOptions): Promise<number> {
  const root = realpathSync(options.outDir);
  const pages = new LivePages(root);
  return followLive({
    paths: options.paths,
    io: options.io,
    root,
    build: options.build,
    privacy: options.privacy,
    settleMs: options.settleMs,
    render: await liveRenderer(),
    ...(options.stop ? { stop: options.stop } : {}),
    appended: (page, _append, tails) => pages.write(page, (built) => tails.pageFor(page, built).html),
    settled: () => pages.rebuilt(),
    rebuilt: () => '',
  });
}
