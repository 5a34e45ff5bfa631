// A registry on 127.0.0.1 that serves the packed tarballs the way npmjs.org serves published packages (a packument
// per name, tarballs by URL), so that an install of `cctrail` is measured as a user's `npm install cctrail` is:
// resolved from a registry and, after a first install, from npm's cache, like ccusage beside it. It knows only the
// given tarballs: the published packages depend on nothing else.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';

/** The package.json inside a tarball. */
function manifestOf(tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

/**
 * Serves tarballs as a registry until `close()`.
 *
 * @param {string[]} tarballs Packed packages.
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveRegistry(tarballs) {
  const packuments = new Map();
  const files = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/').slice(1);
    const file = files.get(path);
    if (file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
      return;
    }
    const packument = packuments.get(path);
    if (!packument) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  for (const tarball of tarballs) {
    const manifest = manifestOf(tarball);
    const bytes = readFileSync(tarball);
    const name = `-/${basename(tarball)}`;
    files.set(name, tarball);
    packuments.set(manifest.name, {
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: {
        [manifest.version]: {
          ...manifest,
          _id: `${manifest.name}@${manifest.version}`,
          dist: {
            tarball: `${url}${name}`,
            shasum: createHash('sha1').update(bytes).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
          },
        },
      },
    });
  }
  return { url, close: () => new Promise((done) => server.close(() => done())) };
}
