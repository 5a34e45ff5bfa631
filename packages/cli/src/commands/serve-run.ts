import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { flag, stringOption } from '../command-line/args.js';
import type { CommandContext } from '../command-line/command.js';
import { CliError } from '../command-line/errors.js';
import { inputPaths } from '../input/input-paths.js';
import { openInBrowser } from '../open-report.js';
import { privacyTransform } from '../privacy/transform.js';
import { childBuild } from '../serve/child-build.js';
import { followLive } from '../serve/follow-live.js';
import { LiveChannel } from '../serve/live-channel.js';
import type { LiveTails } from '../serve/live-tails.js';
import { liveRenderer } from '../serve/live-window.js';
import { changedPages, fingerprintPages, PageActivity } from '../serve/page-changes.js';
import { settleOption } from '../serve/settle-option.js';
import { startServer } from '../serve/static-server.js';
import { styleFor } from '../terminal/terminal.js';
import { REPORT_OPTIONS } from './report-options.js';

/** Reads `--port`: an integer from 0 to 65535 (0: a free port). */
function portOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be 0 to 65535, got ${value}`);
  return port;
}

/** Whether an address is this machine's loopback (only this machine reaches it). */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Does the work of `cctrail serve` (see `serveCommand`). */
export async function runServe({ options, positionals, io }: CommandContext): Promise<number> {
  const host = stringOption(options, 'host') ?? '127.0.0.1';
  const port = portOption(stringOption(options, 'port'));
  const settleMs = settleOption(stringOption(options, 'settle'));
  const outDir = resolve(io.cwd, stringOption(options, 'output') ?? 'cctrail-report');
  const style = styleFor(io.stderr, io.env);
  if (!isLoopback(host))
    io.stderr.write(
      `${style.yellow('cctrail: warning:')} serving on ${host}: anyone who can reach this machine there can read the report.\n`,
    );
  // Every build in a child process (`cctrail report`), the first one too: the memory a build leaves goes with it.
  const build = childBuild(process.argv[1] ?? '', { ...options, open: false }, REPORT_OPTIONS, positionals);
  // The first build says what `cctrail report` says, but the address, not index.html, is what to open.
  const code = await build({ ...io, stdout: new Writable({ write: (_c, _e, done) => done() }) });
  if (code !== 0) return code;

  const root = realpathSync(outDir);
  const paths = inputPaths(positionals, io);
  const channel = new LiveChannel();
  const activity = new PageActivity();
  let tails: LiveTails | null = null;
  let prints = fingerprintPages(root);
  const server = await startServer({
    root,
    host,
    port,
    live: {
      channel,
      now: () => ({ pages: [], live: activity.live(Date.now()), at: Date.now() }),
      page: (page, html) => tails?.pageFor(page, html) ?? { html, notes: '' },
    },
  }).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot listen on ${host}:${port}: ${error.code ?? error.message}`, {
      hint: error.code === 'EADDRINUSE' ? 'Give another --port, or leave it out for a free one.' : undefined,
    });
  });
  io.stderr.write(`Serving ${outDir}\n`);
  io.stdout.write(`${style.bold(server.url)}\n`);
  if (flag(options, 'open')) await openInBrowser(server.url, io);
  try {
    return await followLive({
      paths,
      io,
      root,
      // Rebuilds in a child process: memory a build leaves behind goes with it.
      build: childBuild(process.argv[1] ?? '', { ...options, open: false }, REPORT_OPTIONS, positionals),
      privacy: () =>
        privacyTransform({
          redact: !flag(options, 'no-redact'),
          shortHome: flag(options, 'short-home'),
        }),
      settleMs,
      render: await liveRenderer(),
      following: (t) => {
        tails = t;
      },
      appended: (page, append) => {
        const at = Date.now();
        activity.note([page, page.replace(/p\d+\/$/, '')], at);
        channel.append({ page, from: append.from, live: activity.live(at), at });
      },
      rebuilt: () => {
        const next = fingerprintPages(root, prints);
        const pages = changedPages(prints, next);
        prints = next;
        const at = Date.now();
        activity.note(pages, at);
        channel.publish({ pages, live: activity.live(at), at });
        return `${pages.length === 1 ? '1 page' : `${pages.length} pages`} changed, ${channel.size} open`;
      },
    });
  } finally {
    channel.close();
    await server.close();
  }
}
