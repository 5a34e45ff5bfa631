/**
 * The live loop `cctrail serve` and `cctrail report --watch` share: the report built, the inputs watched, each
 * change read by the append path first (`LiveTails`: the appended lines drawn into the last page of their
 * session by the report's renderer), and the sessions it cannot show, or that have been quiet for a while,
 * rebuilt (the report's rebuild writes only the pages that changed, and the index). What is done with a page
 * appended to (served, or written into the folder) and with a rebuild's changes is the caller's.
 */

import type { Io } from '../command-line/command.js';
import type { Transform } from '../privacy/transform.js';
import { followBuilds } from './follow-builds.js';
import type { Follower } from './follow-inputs.js';
import { LiveTails, type PageAppend } from './live-tails.js';
import type { LiveRenderer } from './live-window.js';

/** Options of `followLive`. */
export interface FollowLiveOptions {
  /** The inputs. */
  paths: readonly string[];
  io: Io;
  /** The report folder (resolved), built once already. */
  root: string;
  /** Runs the report's (incremental) build once; resolves to its exit code. */
  build: (io: Io) => Promise<number>;
  /** Makes the report's privacy transform (one per live window). */
  privacy: () => Transform;
  /** Quiet time after the last append before a session is rebuilt (ms). */
  settleMs: number;
  /** The report's live renderer. */
  render: LiveRenderer;
  /** Lines were appended to a page's session: `tails.pageFor` gives the page as it is now. */
  appended: (page: string, append: PageAppend, tails: LiveTails) => Promise<void> | void;
  /** A rebuild ended: the folder as it left it, before the live windows are opened again on its pages. */
  settled?: () => Promise<void>;
  /** A rebuild ended (`ok`: it succeeded); resolves to a few words on what it changed. */
  rebuilt: (ok: boolean) => Promise<string> | string;
  /** Told of the followed transcripts before the loop starts (a server shows pages through them). */
  following?: (tails: LiveTails) => void;
  /** Stops the loop (tests); else SIGINT or SIGTERM does. */
  stop?: Promise<void>;
}

/**
 * Follows the inputs until stopped.
 *
 * @param options What to follow and what to do with the changes.
 * @returns The exit code (0).
 */
export async function followLive(options: FollowLiveOptions): Promise<number> {
  const { io, paths } = options;
  let follower: Follower | null = null;
  const tails = new LiveTails({
    root: options.root,
    privacy: options.privacy,
    settleMs: options.settleMs,
    render: options.render,
    settle: (files) => follower?.queue(files),
  });
  tails.remember(paths);
  options.following?.(tails);
  // The watcher can miss a change that follows another closely: the files followed are looked at too.
  const look = setInterval(() => {
    const changed = tails.changed();
    if (changed.length > 0) follower?.changed(changed);
  }, 250);
  look.unref();
  try {
    return await followBuilds({
      paths,
      io,
      build: options.build,
      ...(options.stop ? { stop: options.stop } : {}),
      ready: (f) => {
        follower = f;
      },
      absorb: async (files) => {
        const { rebuild, appended } = await tails.absorb(files);
        for (const [page, append] of appended) {
          await options.appended(page, append, tails);
          const what = append.lines === 1 ? '1 line' : `${append.lines} lines`;
          io.stderr.write(`${new Date().toLocaleTimeString('en-GB')} ${what} appended to ${page}\n`);
        }
        return rebuild;
      },
      starting: () => tails.rebuilding(),
      finish: () => tails.waiting(),
      rebuilt: async (ok) => {
        await options.settled?.();
        if (ok) await tails.rebuilt(paths);
        return options.rebuilt(ok);
      },
    });
  } finally {
    clearInterval(look);
    tails.close();
  }
}
