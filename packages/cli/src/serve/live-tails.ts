/**
 * The append path of `cctrail serve` and `report --watch`. When Claude Code appends to a transcript whose pages
 * the report has, only the appended bytes are read (`FileTail`), and the transcript's live window
 * (`LiveWindow`: its lines from the page's last card on) is drawn again by the report's own renderer, redacted:
 * the last transcript page of the file's session or agent is its built page with those cards in place of its
 * last ones (served so, or written so), and open pages are told to fetch it. The session itself is rebuilt (its
 * pages only: the report's rebuild skips unchanged sessions) once it has been quiet for a while, or at once when
 * an append cannot be shown as one (a rewind that forks, a compaction, a rewritten file, a window its page does
 * not draw alike) or the file is new (a new session or agent file).
 */

import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Transform } from '../privacy/transform.js';
import { FileTail } from './file-tail.js';
import { lastPage } from './last-page.js';
import { type LiveRenderer, LiveWindow } from './live-window.js';
import { type TailItem, tailEntries } from './tail-entries.js';

/** Options of `LiveTails`. */
export interface LiveTailsOptions {
  /** The report folder (resolved). */
  root: string;
  /**
   * Makes the report's privacy transform: everything shown passes through it. One per live window: a transform
   * remembers the strings it saw, which a window's drawings share, and its memory goes with the window.
   */
  privacy: () => Transform;
  /** Called when a followed file's session should be rebuilt now (it has been quiet, or holds too much). */
  settle: (files: string[]) => void;
  /** Quiet time after the last append before the session is rebuilt (ms). */
  settleMs: number;
  /** The report's live renderer. */
  render: LiveRenderer;
}

/** What `absorb` did with changed files. */
export interface Absorbed {
  /** Files the append path cannot show: their sessions are rebuilt. */
  rebuild: string[];
  /** Pages (URL paths) and what is new on them. */
  appended: Map<string, PageAppend>;
}

/** What is new on a page. */
export interface PageAppend {
  /** Lines appended (records and notes). */
  lines: number;
  /** The element id the page's cards are drawn anew from (`e-<uuid>`), or null when only notes are new. */
  from: string | null;
}

/** Records in a live window, and notes, per file: more rebuild the session at once. */
const MAX_RECORDS = 400;
const MAX_NOTES = 100;
/**
 * Records a window holds at most, whether the rebuild asked for comes or not (it may fail): a window past it is
 * dropped, and its session's appends are shown by rebuilds only, so memory stays bounded.
 */
const MOST_RECORDS = 2 * MAX_RECORDS;

interface Followed {
  tail: FileTail;
  /** The live window; null when the page cannot be followed live (appends rebuild the session). */
  window: LiveWindow | null;
  /** Notes on appended lines that are not records. */
  notes: TailItem[];
  /** URL path of the page the entries go to. */
  page: string;
  timer: NodeJS.Timeout | null;
}

/** The followed transcripts of a served report. */
export class LiveTails {
  private readonly followed = new Map<string, Followed>();
  /** Sizes of the transcripts when the last build read them. */
  private built = new Map<string, number>();
  private snapshot = new Map<string, number>();

  constructor(private readonly options: LiveTailsOptions) {}

  /**
   * Notes the size of every transcript under the inputs, as the build just read them.
   *
   * @param paths The inputs (folders or files).
   */
  remember(paths: readonly string[]): void {
    const sizes = new Map<string, number>();
    const stack = paths.map((p) => ({ path: p, depth: 0 }));
    while (stack.length > 0) {
      const { path, depth } = stack.pop() as { path: string; depth: number };
      let entries: Dirent[];
      try {
        if (statSync(path).isFile()) {
          if (path.endsWith('.jsonl')) sizes.set(path, statSync(path).size);
          continue;
        }
        entries = readdirSync(path, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const child = join(path, e.name);
        if (e.isDirectory() && depth < 6) stack.push({ path: child, depth: depth + 1 });
        else if (e.isFile() && e.name.endsWith('.jsonl')) sizes.set(child, statSync(child).size);
      }
    }
    this.built = sizes;
  }

  /**
   * Reads the appends of changed files, and says which files need their session rebuilt.
   *
   * @param files Files the watcher saw change.
   */
  async absorb(files: readonly string[]): Promise<Absorbed> {
    const rebuild: string[] = [];
    const appended = new Map<string, PageAppend>();
    for (const file of files) {
      const followed = await this.follow(file);
      if (!followed) {
        rebuild.push(file);
        continue;
      }
      const read = await followed.tail.readNew();
      if (read.kind === 'restart') {
        followed.notes = [];
        followed.window = null;
        rebuild.push(file);
        continue;
      }
      const batch = tailEntries(read.lines, {
        file,
        last: followed.tail.last,
        escape: this.options.render.escape,
      });
      followed.tail.last = batch.last;
      const shown =
        batch.rebuild === undefined &&
        (batch.records.length === 0 || ((await followed.window?.add(batch.records)) ?? false));
      if (!shown || (followed.window?.size ?? 0) > MOST_RECORDS) {
        followed.window = null;
        rebuild.push(file);
        continue;
      }
      followed.notes = [...followed.notes, ...batch.notes].slice(-2 * MAX_NOTES);
      const lines = batch.records.length + batch.notes.length;
      const from = batch.records.length > 0 && followed.window ? followed.window.anchor : null;
      const before = appended.get(followed.page);
      if (lines > 0)
        appended.set(followed.page, {
          lines: (before?.lines ?? 0) + lines,
          from: from ?? before?.from ?? null,
        });
      this.schedule(file, followed);
    }
    return { rebuild, appended };
  }

  /**
   * A page as the live path shows it: its last cards drawn with the records appended since it was built, and
   * the notes on appended lines that are not records.
   *
   * @param page A URL path, e.g. `/s/app/123/p3/`.
   * @param html The page as built.
   * @returns The page's HTML, and the notes' HTML (empty when none).
   */
  pageFor(page: string, html: string): { html: string; notes: string } {
    let shown = html;
    const notes: string[] = [];
    for (const f of this.followed.values()) {
      if (f.page !== page) continue;
      shown = f.window?.place(shown) ?? shown;
      for (const note of f.notes) if (!html.includes(`id="${note.id}"`)) notes.push(note.html);
    }
    return { html: shown, notes: notes.join('\n') };
  }

  /** A rebuild starts: what the files hold now is what its pages will show. */
  rebuilding(): void {
    this.snapshot = new Map([...this.followed].map(([file, f]) => [file, f.tail.offset]));
  }

  /**
   * A rebuild ended: the notes on lines it read are dropped, pages are looked up again (a session may have a
   * new last page) and their windows opened again on what they now show, and the transcripts' sizes noted for
   * the files not followed yet.
   *
   * @param paths The inputs.
   */
  async rebuilt(paths: readonly string[]): Promise<void> {
    for (const [file, f] of [...this.followed]) {
      const read = this.snapshot.get(file) ?? 0;
      f.notes = f.notes.filter((note) => note.offset >= read);
      // Nothing appended since the rebuild read the file: its pages are complete, no rebuild waits.
      if (f.tail.offset === read && f.timer) {
        clearTimeout(f.timer);
        f.timer = null;
      }
      const page = lastPage(this.options.root, file);
      if (page === null) this.drop(file);
      else {
        f.page = page;
        f.window = await this.openWindow(file, page, read, f.tail.offset);
      }
    }
    this.snapshot.clear();
    this.remember(paths);
  }

  /**
   * The followed files whose size changed since they were last read: the watcher may miss a change (it
   * drops events that come close together), so `cctrail serve` also looks at these few files now and then.
   */
  changed(): string[] {
    return [...this.followed].filter(([, f]) => f.tail.changed()).map(([file]) => file);
  }

  /** Files appended to whose session has not been rebuilt since (waiting for it to be quiet). */
  waiting(): string[] {
    return [...this.followed].filter(([, f]) => f.timer !== null).map(([file]) => file);
  }

  /** Stops the timers. */
  close(): void {
    for (const file of [...this.followed.keys()]) this.drop(file);
  }

  private async follow(file: string): Promise<Followed | null> {
    const known = this.followed.get(file);
    if (known) return known;
    const size = this.built.get(file);
    const page = size === undefined ? null : lastPage(this.options.root, file);
    if (page === null || !existsSync(file)) return null;
    const tail = await FileTail.open(file, size);
    const window = await this.openWindow(file, page, tail.offset, tail.offset);
    const followed: Followed = { tail, window, notes: [], page, timer: null };
    this.followed.set(file, followed);
    return followed;
  }

  /** The live window of a file whose page shows its first `built` bytes; null when it cannot be had. */
  private async openWindow(
    file: string,
    page: string,
    built: number,
    end: number,
  ): Promise<LiveWindow | null> {
    let html: string;
    try {
      html = readFileSync(join(this.options.root, page, 'index.html'), 'utf8');
    } catch {
      return null;
    }
    const scope = basename(dirname(file)) === 'subagents' ? 'agent' : 'main';
    const [, , project = '', session = ''] = page.split('/');
    const route = { route: page.slice(1), project, session };
    const { render } = this.options;
    const privacy = this.options.privacy();
    return LiveWindow.open({ file, scope, page: route, privacy, render }, built, end, html).catch(() => null);
  }

  private schedule(file: string, f: Followed): void {
    if (f.timer) clearTimeout(f.timer);
    const now = (f.window?.size ?? 0) >= MAX_RECORDS || f.notes.length >= MAX_NOTES;
    f.timer = setTimeout(
      () => {
        f.timer = null;
        this.options.settle([file]);
      },
      now ? 0 : this.options.settleMs,
    );
    f.timer.unref();
  }

  private drop(file: string): void {
    const f = this.followed.get(file);
    if (f?.timer) clearTimeout(f.timer);
    this.followed.delete(file);
  }
}
