import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { PageDone, PageOutput } from './page-threads.js';
import type { SiteWriter } from './site-writer.js';

/**
 * The last step of a build: each file of the site, a page as the site's bundle rendered it whole, goes straight
 * into the output folder, unless the folder holds it already as it is (the digest of every file written is
 * remembered for the next build). A rebuild after one changed session thus writes only its pages. Removing
 * what the site no longer has is the writer's part (`site-writer.ts`), once every file of the build is written.
 */

/** What a `PageWriter` did. */
export interface WriteResult {
  /** HTML pages in the site. */
  pages: number;
  /** Files written (new or changed). */
  written: number;
}

/** Options of a `PageWriter`. */
export interface PageWriterOptions {
  /** The output folder, written through its writer. */
  site: SiteWriter;
  /** JSON file remembering the digest of every file written, for the next build. */
  state: string;
}

/** The digest by which a build knows a file of the site unchanged. */
export function signatureOf(bytes: string | Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** Puts the files of a build into the output folder, one at a time (see the module comment). */
export class PageWriter {
  private readonly previous: Record<string, string>;
  private readonly next: Record<string, string> = {};
  private pages = 0;
  private written = 0;

  constructor(private readonly o: PageWriterOptions) {
    let previous: Record<string, string> = {};
    try {
      previous = JSON.parse(readFileSync(o.state, 'utf8')) as Record<string, string>;
    } catch {
      previous = {};
    }
    this.previous = previous;
  }

  /**
   * Puts a file of the site in place, written only when its bytes changed since the last build (or it is gone).
   * @param rel Its path in the site, relative and `/`-separated.
   * @param bytes Its content.
   */
  put(rel: string, bytes: string | Uint8Array): void {
    this.putKnown(rel, signatureOf(bytes), () => bytes);
  }

  /**
   * `put` of a file whose digest (`signatureOf` its bytes) is known without its bytes: they are made only when
   * the output folder does not hold them already.
   * @param rel Its path in the site, relative and `/`-separated.
   * @param signature The digest of its bytes.
   * @param bytes Makes its content.
   */
  putKnown(rel: string, signature: string, bytes: () => string | Uint8Array): void {
    if (this.claim(rel, signature)) this.o.site.write(rel, bytes());
  }

  /**
   * `putKnown` of a page a page thread rendered: written here from its bytes, or, when the thread wrote it itself
   * (given `threadOutput()`), counted as the thread did, written or kept.
   * @param rel Its path in the site, relative and `/`-separated.
   * @param done What the thread sent back.
   */
  putRendered(rel: string, done: PageDone): void {
    const { bytes } = done;
    if (bytes !== undefined) {
      this.putKnown(rel, done.signature, () => bytes);
      return;
    }
    if (rel.endsWith('.html')) this.pages++;
    this.next[rel] = done.signature;
    if (done.written) this.written++;
    this.o.site.keep(rel);
  }

  /** What page threads need to write the pages they render themselves (`PageWork.output`). */
  threadOutput(): PageOutput {
    return { outDir: this.o.site.outDir, known: this.previous };
  }

  /**
   * `putKnown` of a file that another thread writes when told (the search index's, `search-thread.ts`): its digest
   * is remembered, and the file counted as written or kept.
   * @param rel Its path in the site, relative and `/`-separated.
   * @param signature The digest of its bytes.
   * @returns Whether it must be written (else it is in place already, and kept).
   */
  claim(rel: string, signature: string): boolean {
    if (rel.endsWith('.html')) this.pages++;
    this.next[rel] = signature;
    if (this.previous[rel] === signature && this.o.site.hasFile(rel)) {
      this.o.site.keep(rel);
      return false;
    }
    this.written++;
    return true;
  }

  /**
   * A file the build keeps from the last one without putting it (a page whose inputs did not change): the digest
   * the last build knew of it is remembered for the next, which then writes it only if its bytes changed.
   * @param rel Its path in the site, relative and `/`-separated.
   */
  keep(rel: string): void {
    const signature = this.previous[rel];
    if (signature !== undefined) this.next[rel] = signature;
  }

  /**
   * `put` of a file the package keeps Brotli-compressed (Mermaid's bundle: 0.7 MB, 3.5 MB decompressed): its
   * digest is remembered beside the digest of its compressed bytes, so a build whose compressed file did not change
   * digests 0.7 MB and decompresses nothing unless the output folder lost the file.
   * @param rel Its path in the site, relative and `/`-separated.
   * @param file The compressed file.
   * @param known A JSON file of the site's cache: the two digests, for the next build.
   */
  putCompressed(rel: string, file: string, known: string): void {
    const compressed = readFileSync(file);
    const digest = signatureOf(compressed);
    let remembered: { compressed?: unknown; signature?: unknown } = {};
    try {
      remembered = JSON.parse(readFileSync(known, 'utf8')) as typeof remembered;
    } catch {
      remembered = {};
    }
    if (remembered.compressed === digest && typeof remembered.signature === 'string') {
      this.putKnown(rel, remembered.signature, () => brotliDecompressSync(compressed));
      return;
    }
    const bytes = brotliDecompressSync(compressed);
    const signature = signatureOf(bytes);
    this.putKnown(rel, signature, () => bytes);
    mkdirSync(dirname(known), { recursive: true });
    writeFileSync(known, JSON.stringify({ compressed: digest, signature }));
  }

  /** Records the digests for the next build; returns what was put. */
  finish(): WriteResult {
    mkdirSync(dirname(this.o.state), { recursive: true });
    // In the order of their paths: files written by other threads are put in whenever they are planned.
    const next: Record<string, string> = {};
    for (const rel of Object.keys(this.next).sort()) next[rel] = this.next[rel] as string;
    writeFileSync(this.o.state, JSON.stringify(next));
    return { pages: this.pages, written: this.written };
  }
}
