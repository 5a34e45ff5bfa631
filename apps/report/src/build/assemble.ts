import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { filesUnder } from './files.js';
import type { SiteWriter } from './site-writer.js';

/**
 * The last step of a build: the site's bundle renders every page into a staging folder with a marker where
 * the cached transcript goes; `assembleSite` copies the staged site into the output folder, putting each
 * transcript in place (as bytes: no decoding of large strings), and skips files that have not changed since the
 * last build. A rebuild after one changed session thus writes only its pages. Removing what the site no longer
 * has is the writer's part (`site-writer.ts`), once every file of the build is written.
 */

const MARKER_START = '<!--cctrail-fragment:';
const MARKER_END = '-->';

/** The marker a page writes where the transcript of cache key `key` goes. */
export function fragmentMarker(key: string): string {
  if (!/^[a-z0-9._-]+$/.test(key)) throw new Error(`invalid fragment key ${key}`);
  return `${MARKER_START}${key}${MARKER_END}`;
}

/** What `assembleSite` did. */
export interface AssembleResult {
  /** HTML pages in the site. */
  pages: number;
  /** Files written (new or changed). */
  written: number;
}

/** Options of `assembleSite`. */
export interface AssembleOptions {
  /** Folder Astro built into. */
  stage: string;
  /** The output folder, written through its writer. */
  site: SiteWriter;
  /** Folder of cached fragments (`<key>.html`). */
  fragments: string;
  /** JSON file remembering the signature of every file written, for the next build. */
  state: string;
}

/** Puts fragments in place of their markers; returns the file's bytes and the keys it used. */
function fill(shell: Buffer, fragments: string): { bytes: Buffer; keys: string[] } {
  const parts: Buffer[] = [];
  const keys: string[] = [];
  let from = 0;
  for (;;) {
    const at = shell.indexOf(MARKER_START, from);
    if (at < 0) break;
    const end = shell.indexOf(MARKER_END, at + MARKER_START.length);
    if (end < 0) break;
    const key = shell.subarray(at + MARKER_START.length, end).toString('latin1');
    parts.push(shell.subarray(from, at));
    const file = join(fragments, `${key}.html`);
    parts.push(
      /^[a-z0-9._-]+$/.test(key) && existsSync(file)
        ? readFileSync(file)
        : Buffer.from('<p class="problem">This part of the transcript is missing from the build cache.</p>'),
    );
    keys.push(key);
    from = end + MARKER_END.length;
  }
  if (keys.length === 0) return { bytes: shell, keys };
  parts.push(shell.subarray(from));
  return { bytes: Buffer.concat(parts), keys };
}

/** Copies the staged site into the output folder (see the module comment). */
export function assembleSite(o: AssembleOptions): AssembleResult {
  let previous: Record<string, string> = {};
  try {
    previous = JSON.parse(readFileSync(o.state, 'utf8')) as Record<string, string>;
  } catch {
    previous = {};
  }
  const next: Record<string, string> = {};
  const staged = filesUnder(o.stage);
  let written = 0;
  let pages = 0;
  for (const rel of staged) {
    const shell = readFileSync(join(o.stage, rel));
    const isHtml = rel.endsWith('.html');
    if (isHtml) pages++;
    const hash = createHash('sha1').update(shell);
    // A page's bytes are decided by its shell and the keys of its fragments (keys include the content hash).
    const keys = isHtml
      ? [...shell.toString('latin1').matchAll(/<!--cctrail-fragment:([a-z0-9._-]+)-->/g)].map((m) => m[1])
      : [];
    for (const k of keys) hash.update(`\u0000${k}`);
    const signature = hash.digest('hex');
    next[rel] = signature;
    if (previous[rel] === signature && o.site.hasFile(rel)) {
      o.site.keep(rel);
      continue;
    }
    o.site.write(rel, isHtml ? fill(shell, o.fragments).bytes : shell);
    written++;
  }
  mkdirSync(dirname(o.state), { recursive: true });
  writeFileSync(o.state, JSON.stringify(next));
  return { pages, written };
}
