/**
 * The web server of `cctrail serve`: node's own http server and `resolveRequest`, not a static-file package,
 * because it must change the pages it serves (the live script) and check every path against the folder's real
 * path. Read-only (GET and HEAD), no CORS headers, no folder listings, only requests whose Host names this
 * machine (a page on another site cannot reach it by DNS rebinding), a bounded number of connections.
 */

import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addNotes, injectLive } from './inject-live.js';
import type { LiveChange, LiveChannel } from './live-channel.js';
import { LIVE_EVENTS_PATH, LIVE_SCRIPT_PATH } from './live-script.js';
import { liveScriptText } from './live-script-text.js';
import { resolveRequest } from './resolve-request.js';

/** Options of `startServer`. */
export interface ServerOptions {
  /** The folder served, absolute and resolved through `realpath`. */
  root: string;
  /** The address to listen on (`127.0.0.1` unless told). */
  host: string;
  /** The port; 0 for a free one. */
  port: number;
  /**
   * The event stream; without one the pages are served as built. `page` gives a page as the live path shows
   * it (URL path, e.g. `/s/app/1/`, and the page's HTML as built): its HTML with the entries appended to its
   * session since it was built, and notes on appended lines that are not records.
   */
  live?: {
    channel: LiveChannel;
    now: () => LiveChange;
    page?: (page: string, html: string) => { html: string; notes: string };
  };
  /** At most this many open connections (default 64). */
  maxConnections?: number;
}

/** A started server. */
export interface StaticServer {
  /** The site's address, e.g. `http://127.0.0.1:43117/`. */
  url: string;
  port: number;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

const HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
} as const;

/**
 * Starts serving a folder.
 *
 * @param options The folder, address and port.
 */
export async function startServer(options: ServerOptions): Promise<StaticServer> {
  const pages = new BuiltPages();
  const server = createServer((request, response) => handle(options, pages, request, response));
  server.maxConnections = options.maxConnections ?? 64;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}/`, port, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A response to send: a status, its headers and body. */
interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

function handle(
  options: ServerOptions,
  pages: BuiltPages,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const url = request.url ?? '/';
  const path = url.split(/[?#]/, 1)[0];
  const live = options.live;
  if (live && request.method === 'GET' && path === LIVE_EVENTS_PATH && hostAllowed(request, options)) {
    live.channel.open(request, response, live.now());
    return;
  }
  const reply = answer(options, pages, request, url);
  response.writeHead(reply.status, {
    ...HEADERS,
    ...reply.headers,
    'Content-Length': String(Buffer.byteLength(reply.body)),
  });
  response.end(request.method === 'HEAD' ? undefined : reply.body);
}

/** What a request gets, but the event stream. */
function answer(options: ServerOptions, pages: BuiltPages, request: IncomingMessage, url: string): Reply {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return plain(405, 'Method not allowed: the report is read-only.', { Allow: 'GET, HEAD' });
  if (!hostAllowed(request, options)) return plain(421, 'Unknown host.');
  const path = url.split(/[?#]/, 1)[0];
  if (options.live && path === LIVE_SCRIPT_PATH)
    return {
      status: 200,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
      body: liveScriptText(),
    };
  const resolved = resolveRequest(options.root, url);
  switch (resolved.kind) {
    case 'bad':
      return plain(400, 'Bad request.');
    case 'not-found':
      return plain(404, 'Not found.');
    case 'redirect':
      return { status: 301, headers: { Location: resolved.location }, body: '' };
  }
  let body: Buffer | string;
  try {
    if (options.live && resolved.type.startsWith('text/html')) {
      const served = pages.text(resolved.path);
      const shown = options.live.page?.(pagePath(path ?? '/'), served) ?? { html: served, notes: '' };
      body = Buffer.from(addNotes(shown.html, shown.notes));
    } else body = readFileSync(resolved.path);
  } catch {
    // Removed between the look-up and the read (a rebuild pruned it).
    return plain(404, 'Not found.');
  }
  return { status: 200, headers: { 'Content-Type': resolved.type }, body };
}

/**
 * The pages last served, read and given the live script once while their file is unchanged: an open page of a
 * running session is fetched again at each append, and its page (a session's first page holds its flowchart and
 * figures: a MB or more) would otherwise be read, decoded and copied whole each time, garbage the process's heap
 * grows to hold. The live path's cards and notes are put in afterwards.
 */
class BuiltPages {
  private readonly pages = new Map<string, { size: number; mtimeMs: number; ino: number; text: string }>();

  /** An HTML file's text with the live script (`injectLive`). */
  text(path: string): string {
    const { size, mtimeMs, ino } = statSync(path);
    const known = this.pages.get(path);
    this.pages.delete(path);
    const text =
      known && known.size === size && known.mtimeMs === mtimeMs && known.ino === ino
        ? known.text
        : injectLive(readFileSync(path, 'utf8'));
    this.pages.set(path, { size, mtimeMs, ino, text });
    // The few pages open live, not the whole site.
    for (const old of this.pages.keys()) if (this.pages.size > MOST_PAGES_KEPT) this.pages.delete(old);
    return text;
  }
}

/** Pages whose text `BuiltPages` keeps. */
const MOST_PAGES_KEPT = 4;

/** A request's path as the report names its pages: decoded, without a final `index.html`. */
function pagePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  return decoded.replace(/index\.html$/, '');
}

/** Host names that name this machine, and the one the server was told to listen on. */
function hostAllowed(request: IncomingMessage, options: ServerOptions): boolean {
  const header = request.headers.host;
  const listening = options.host;
  if (header === undefined) return false;
  const name = header
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  return (
    name === 'localhost' ||
    name === '127.0.0.1' ||
    name === '::1' ||
    name === listening.toLowerCase() ||
    // Listening on every address: reached by this machine's names or addresses; other names are refused.
    (isUnspecified(listening) && /^[\d.]+$|:/.test(name))
  );
}

function isUnspecified(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Reply {
  return { status, headers: { ...extra, 'Content-Type': 'text/plain; charset=utf-8' }, body: `${text}\n` };
}
