/**
 * The server-sent events stream of `cctrail serve` (`/_cctrail/live`): each open page listens on it and
 * hears which pages a rebuild changed, and the entries appended to a session since. A bounded number of
 * listeners; a comment line now and then keeps idle connections from being closed by proxies and tells the
 * server which listeners are gone.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a page hears when a rebuild is done. */
export interface LiveChange {
  /** URL paths of the pages whose content changed or that are new, e.g. `/s/app/123/`. */
  pages: string[];
  /** Pages changed recently (their session is running), newest first. */
  live: string[];
  /** When the rebuild finished (ms since the epoch). */
  at: number;
}

/** What a page hears when lines were appended to its session (the append path: no rebuild). */
export interface LiveAppend {
  /** The URL path of the page the entries go to (the last transcript page of their session or agent). */
  page: string;
  /**
   * The element id of the page's first card drawn anew (`e-<uuid>`): the page, fetched again, differs from what
   * the reader has from there on. Null when only notes on lines that are not records are new.
   */
  from: string | null;
  /** Pages changed recently, newest first. */
  live: string[];
  /** When they were read (ms since the epoch). */
  at: number;
}

/** The open event streams. */
export class LiveChannel {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  /**
   * @param limit At most this many open streams; more are refused with 503.
   * @param heartbeatMs How often a comment line is sent.
   */
  constructor(
    private readonly limit = 32,
    heartbeatMs = 20_000,
  ) {
    this.heartbeat = setInterval(() => this.send(': keep-alive\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Open streams. */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Opens a stream on a request, or refuses it when the channel is full.
   *
   * @param request The GET request of `/_cctrail/live`.
   * @param response Its response.
   * @param hello The first event: the pages that are live now.
   */
  open(request: IncomingMessage, response: ServerResponse, hello: LiveChange): void {
    if (this.clients.size >= this.limit) {
      response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '10' });
      response.end('Too many live pages open.\n');
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'keep-alive',
    });
    response.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    this.clients.add(response);
    const drop = () => this.clients.delete(response);
    request.on('close', drop);
    response.on('error', drop);
  }

  /**
   * Tells every open page what a rebuild changed.
   *
   * @param change The pages changed and the live ones.
   */
  publish(change: LiveChange): void {
    this.send(`event: change\ndata: ${JSON.stringify(change)}\n\n`);
  }

  /**
   * Tells every open page that lines were appended to a page's session.
   *
   * @param append The page and where it changed.
   */
  append(append: LiveAppend): void {
    this.send(`event: append\ndata: ${JSON.stringify(append)}\n\n`);
  }

  /** Ends every stream (the server is stopping). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private send(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}
