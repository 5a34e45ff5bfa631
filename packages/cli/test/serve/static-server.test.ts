import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveChannel } from '../../src/serve/live-channel.js';
import { liveScriptText } from '../../src/serve/live-script-text.js';
import { type StaticServer, startServer } from '../../src/serve/static-server.js';

const base = mkdtempSync(join(tmpdir(), 'cctrail-server-'));
const root = realpathSync(base);
mkdirSync(join(root, 's', 'app'), { recursive: true });
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'none'">`;
writeFileSync(join(root, 'index.html'), `<html><head>${CSP}</head><body><p>home</p></body></html>`);
writeFileSync(join(root, 's', 'app', 'index.html'), '<p>app</p>');
mkdirSync(join(root, 's', 'app', 'p2'));
writeFileSync(join(root, 's', 'app', 'p2', 'index.html'), '<body><main><p>page 2</p></main></body>');
writeFileSync(join(root, 'data.json'), '{"a":1}');
writeFileSync(join(base, '..', 'cctrail-server-outside.txt'), 'outside');

interface Got {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One request with a raw path and the headers given (no URL normalization, unlike fetch). */
function get(
  server: StaticServer,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Got>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens the event stream and resolves with the text of the first `count` events (the stream left open). */
function events(server: StaticServer, count: number, opened?: () => void) {
  return new Promise<{ text: string; close: () => void }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/_cctrail/live' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: hello')) opened?.();
        if ((text.match(/^event: /gm) ?? []).length >= count) resolve({ text, close: () => req.destroy() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let plain: StaticServer;
let live: StaticServer;
const channel = new LiveChannel(2);
beforeAll(async () => {
  plain = await startServer({ root, host: '127.0.0.1', port: 0 });
  live = await startServer({
    root,
    host: '127.0.0.1',
    port: 0,
    live: {
      channel,
      now: () => ({ pages: [], live: ['/s/app/'], at: 1 }),
      page: (page, html) =>
        page === '/s/app/p2/'
          ? {
              html: html.replace('page 2', 'page 2, live'),
              notes: '<p class="diag" id="live-line-3">note</p>',
            }
          : { html, notes: '' },
    },
  });
});
afterAll(async () => {
  channel.close();
  await Promise.all([plain.close(), live.close()]);
  rmSync(base, { recursive: true, force: true });
  rmSync(join(base, '..', 'cctrail-server-outside.txt'), { force: true });
}, 0);

describe('startServer', () => {
  it('listens on the loopback address it was given, on a free port', () => {
    expect(plain.url).toBe(`http://127.0.0.1:${plain.port}/`);
    expect(plain.port).toBeGreaterThan(0);
    expect(live.port).not.toBe(plain.port);
  });

  it('serves files with their type, read-only headers and no CORS', async () => {
    const page = await get(plain, '/', { headers: { Origin: 'http://evil.example' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(Object.keys(page.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(page.body).toContain('<p>home</p>');
    const json = await get(plain, '/data.json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.body).toBe('{"a":1}');
  });

  it('answers HEAD without a body and refuses every other method', async () => {
    const head = await get(plain, '/data.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('7');
    expect(head.body).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const refused = await get(plain, '/data.json', { method });
      expect([method, refused.status, refused.headers.allow]).toEqual([method, 405, 'GET, HEAD']);
    }
  });

  it('refuses paths out of the folder and hosts that are not this machine', async () => {
    for (const path of [
      '/../cctrail-server-outside.txt',
      '/%2e%2e/cctrail-server-outside.txt',
      '/s%2f..%2f..%2fx',
    ])
      expect([path, (await get(plain, path)).status]).toEqual([path, 400]);
    expect((await get(plain, '/s/')).status).toBe(404);
    expect((await get(plain, '/s')).headers.location).toBe('/s/');
    expect((await get(plain, '/', { headers: { Host: 'evil.example' } })).status).toBe(421);
    expect((await get(plain, '/', { headers: { Host: `localhost:${plain.port}` } })).status).toBe(200);
  });

  it('adds the live script and allows connecting to itself only in the pages of a live server', async () => {
    const served = (await get(live, '/')).body;
    expect(served).toContain(`connect-src 'self'`);
    expect(served).not.toContain(`connect-src 'none'`);
    expect(served).toMatch(/<script src="\/_cctrail\/live\.js"><\/script><\/body>/);
    expect((await get(live, '/_cctrail/live.js')).body).toBe(liveScriptText());
    expect((await get(plain, '/')).body).not.toContain('live.js');
    expect((await get(plain, '/_cctrail/live.js')).status).toBe(404);
    expect((await get(plain, '/_cctrail/live')).status).toBe(404);
  });

  it('serves a page as the live path shows it, with the notes on appended lines at the end of its main content', async () => {
    const block =
      '<section class="section" id="cctrail-tail" aria-label="Notes on new lines">' +
      '<p class="diag" id="live-line-3">note</p></section></main>';
    for (const path of ['/s/app/p2/', '/s/app/p2/index.html'])
      expect((await get(live, path)).body).toContain(`<p>page 2, live</p>${block}`);
    expect((await get(live, '/s/app/')).body).not.toContain('cctrail-tail');
    expect((await get(plain, '/s/app/p2/')).body).toBe('<body><main><p>page 2</p></main></body>');
  });

  it('serves a page written again (a rebuild) as it is now, the same size or not, and the pages it keeps bounded', async () => {
    const page = join(root, 's', 'app', 'p3', 'index.html');
    mkdirSync(join(root, 's', 'app', 'p3'), { recursive: true });
    writeFileSync(page, '<body><main><p>first</p></main></body>');
    expect((await get(live, '/s/app/p3/')).body).toContain('<p>first</p>');
    // Written again as a rebuild writes it (a new file in its place), with as many bytes.
    writeFileSync(`${page}.tmp`, '<body><main><p>again</p></main></body>');
    renameSync(`${page}.tmp`, page);
    expect((await get(live, '/s/app/p3/')).body).toContain('<p>again</p>');
    // More pages than it keeps, then the first again: read anew, as it is.
    for (const path of ['/', '/s/app/', '/s/app/p2/', '/s/app/p3/']) await get(live, path);
    writeFileSync(join(root, 's', 'app', 'index.html'), '<p>app, rebuilt</p>');
    expect((await get(live, '/s/app/')).body).toContain('<p>app, rebuilt</p>');
  });

  it('streams what a rebuild changed, to a bounded number of pages', async () => {
    let opened = 0;
    const both = Promise.all(
      [1, 2].map(() =>
        events(live, 2, () => {
          opened++;
          if (opened === 2) channel.publish({ pages: ['/s/app/'], live: ['/s/app/'], at: 2 });
        }),
      ),
    );
    const [first, second] = await both;
    expect(first?.text).toContain('event: hello\ndata: {"pages":[],"live":["/s/app/"],"at":1}');
    expect(second?.text).toContain('event: change\ndata: {"pages":["/s/app/"],"live":["/s/app/"],"at":2}');
    const third = await get(live, '/_cctrail/live');
    expect(third.status).toBe(503);
    first?.close();
    second?.close();
  });

  it('drops connections beyond its bound', async () => {
    const small = await startServer({ root, host: '127.0.0.1', port: 0, maxConnections: 1 });
    const held = connect(small.port, '127.0.0.1');
    await new Promise((resolve) => held.once('connect', resolve));
    // The server counts the first connection once it accepted it: a request on it proves that.
    held.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await new Promise((resolve) => held.once('data', resolve));
    const extra = connect(small.port, '127.0.0.1');
    extra.on('error', () => {});
    extra.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    let answered = '';
    extra.on('data', (chunk) => {
      answered += chunk;
    });
    await new Promise((resolve) => extra.once('close', resolve));
    expect(answered).toBe('');
    held.destroy();
    await small.close();
  });
});
