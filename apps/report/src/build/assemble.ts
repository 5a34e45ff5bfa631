import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fragmentBytes } from './fragments.js';
import type { SiteWriter } from './site-writer.js';

/**
 * The last step of a build: the site's bundle renders every page with a marker where the cached transcript goes,
 * and the `SiteAssembler` puts each page straight into the output folder, the transcript in place (as bytes: no
 * decoding of large strings), skipping files that have not changed since the last build. A rebuild after one
 * changed session thus writes only its pages. Removing what the site no longer has is the writer's part
 * (`site-writer.ts`), once every file of the build is written.
 */

const MARKER_START = '<!--cctrail-fragment:';
const MARKER_END = '-->';

/** The marker a page writes where the transcript of cache key `key` goes. */
export function fragmentMarker(key: string): string {
  if (!/^[a-z0-9._-]+$/.test(key)) throw new Error(`invalid fragment key ${key}`);
  return `${MARKER_START}${key}${MARKER_END}`;
}

/** What a `SiteAssembler` did. */
export interface AssembleResult {
  /** HTML pages in the site. */
  pages: number;
  /** Files written (new or changed). */
  written: number;
}

/** Options of a `SiteAssembler`. */
export interface AssembleOptions {
  /** The output folder, written through its writer. */
  site: SiteWriter;
  /** Folder of cached fragments (`fragments.ts`). */
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
    parts.push(
      (/^[a-z0-9._-]+$/.test(key) ? fragmentBytes(fragments, key) : null) ??
        Buffer.from('<p class="problem">This part of the transcript is missing from the build cache.</p>'),
    );
    keys.push(key);
    from = end + MARKER_END.length;
  }
  if (keys.length === 0) return { bytes: shell, keys };
  parts.push(shell.subarray(from));
  return { bytes: Buffer.concat(parts), keys };
}

/** Puts the files of a build into the output folder, one at a time (see the module comment). */
export class SiteAssembler {
  private readonly previous: Record<string, string>;
  private readonly next: Record<string, string> = {};
  private pages = 0;
  private written = 0;

  constructor(private readonly o: AssembleOptions) {
    let previous: Record<string, string> = {};
    try {
      previous = JSON.parse(readFileSync(o.state, 'utf8')) as Record<string, string>;
    } catch {
      previous = {};
    }
    this.previous = previous;
  }

  /**
   * Puts a file of the site in place: an HTML page gets its fragments filled in, and is written only when its
   * shell or its fragments changed since the last build (or the file is gone).
   * @param rel Its path in the site, relative and `/`-separated.
   * @param shell Its bytes, markers included.
   */
  put(rel: string, shell: Buffer): void {
    const isHtml = rel.endsWith('.html');
    if (isHtml) this.pages++;
    const hash = createHash('sha1').update(shell);
    // A page's bytes are decided by its shell and the keys of its fragments (keys include the content hash).
    const keys = isHtml
      ? [...shell.toString('latin1').matchAll(/<!--cctrail-fragment:([a-z0-9._-]+)-->/g)].map((m) => m[1])
      : [];
    for (const k of keys) hash.update(`\u0000${k}`);
    const signature = hash.digest('hex');
    this.next[rel] = signature;
    if (this.previous[rel] === signature && this.o.site.hasFile(rel)) {
      this.o.site.keep(rel);
      return;
    }
    this.o.site.write(rel, isHtml ? fill(shell, this.o.fragments).bytes : shell);
    this.written++;
  }

  /** Records the signatures for the next build; returns what was put. */
  finish(): AssembleResult {
    mkdirSync(dirname(this.o.state), { recursive: true });
    writeFileSync(this.o.state, JSON.stringify(this.next));
    return { pages: this.pages, written: this.written };
  }
}
