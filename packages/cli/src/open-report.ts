import type { Io } from './command-line/command.js';

/**
 * The `open` package, bundled into `dist/vendor/open.js` by the build (see `scripts/vendor-open.mjs`) and copied
 * beside the published bundle: this module stays at the top of `src/`, so `./vendor/open.js` is found from both.
 */
type Open = typeof import('open');

/**
 * Opens a report's index page in the default browser (`--open`). A machine without one (a server, a container)
 * gets a line saying so, not an error: the report is built either way.
 *
 * @param indexHtml The page, absolute.
 * @param io Where to say that no browser could be opened.
 */
export async function openInBrowser(indexHtml: string, io: Io): Promise<void> {
  try {
    const { default: open } = (await import(new URL('./vendor/open.js', import.meta.url).href)) as Open;
    const browser = await open(indexHtml);
    browser.on('error', (error) => cannotOpen(indexHtml, error, io));
  } catch (error) {
    cannotOpen(indexHtml, error, io);
  }
}

function cannotOpen(indexHtml: string, error: unknown, io: Io): void {
  const reason = error instanceof Error ? error.message : String(error);
  io.stderr.write(`cctrail: could not open a browser (${reason}); open ${indexHtml} yourself.\n`);
}
