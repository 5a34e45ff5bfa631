/**
 * Which file of the served folder a request path names. The served folder is the only root: a path that
 * climbs out of it (`..`, `%2e%2e`), that hides a separator in a segment (`%2f`, `%5c`, a backslash), that
 * names a hidden file (a leading dot) or that reaches a file through a symlink pointing outside the folder
 * names nothing. Folders are never listed: a folder's `index.html` is its page.
 */

import { realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

/** What a request path resolves to. */
export type Resolved =
  | { kind: 'file'; path: string; type: string }
  /** A folder asked for without its trailing slash: the relative links of its page need one. */
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' }
  /** A path no file can have: an encoded separator, a dot segment, a NUL, bad percent-encoding. */
  | { kind: 'bad' };

/** Content types of the files a report holds; anything else is served as bytes. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The content type of a file name, by its extension (`application/octet-stream` when unknown).
 *
 * @param path A file name or path.
 */
export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves the path of a request URL (query and fragment ignored) to a file of `root`.
 *
 * @param root The served folder, absolute and already resolved through `realpath`.
 * @param url The request target, e.g. `/s/app/123/?x=1`.
 */
export function resolveRequest(root: string, url: string): Resolved {
  const rawPath = url.split(/[?#]/, 1)[0] ?? '';
  if (!rawPath.startsWith('/')) return { kind: 'bad' };
  const segments: string[] = [];
  const raw = rawPath.slice(1).split('/');
  for (const [i, part] of raw.entries()) {
    if (part === '' && i === raw.length - 1) break;
    if (part === '') return { kind: 'bad' };
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { kind: 'bad' };
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return { kind: 'bad' };
    if (segment.startsWith('.')) return { kind: 'not-found' };
    segments.push(segment);
  }
  const folderAsked = rawPath.endsWith('/');
  const target = join(root, ...segments);
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return { kind: 'not-found' };
  let file = target;
  if (info.isDirectory()) {
    if (!folderAsked) return { kind: 'redirect', location: `${rawPath}/${url.slice(rawPath.length)}` };
    file = join(target, 'index.html');
  } else if (folderAsked) return { kind: 'not-found' };
  const real = realInside(root, file);
  if (real === null) return { kind: 'not-found' };
  return { kind: 'file', path: real, type: contentType(real) };
}

/** The real path of a regular file when it lies inside `root`, else null. */
function realInside(root: string, path: string): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return null;
  }
  if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  return statSync(real, { throwIfNoEntry: false })?.isFile() ? real : null;
}
