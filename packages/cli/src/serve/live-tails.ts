/**
 * The append path of `cctrail serve`. When Claude Code appends to a transcript whose pages the report has, only
 * the appended bytes are read (`FileTail`), redacted and rendered (`tailEntries`), and kept for the last
 * transcript page of the file's session or agent: the server adds them to that page as it serves it, and open
 * pages are told to add them in place. The session itself is rebuilt (its pages only: the report's rebuild
 * skips unchanged sessions) once it has been quiet for a while, or at once when an append cannot be shown as
 * one (a rewind that forks, a compaction, a rewritten file) or the file is new (a new session or agent file).
 * After a rebuild, the entries its pages now hold are dropped.
 */

import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Transform } from '../privacy/transform.js';
import { FileTail } from './file-tail.js';
import { type TailItem, tailEntries } from './tail-entries.js';

/** Options of `LiveTails`. */
export interface LiveTailsOptions {
  /** The report folder (resolved). */
  root: string;
  /** The report's privacy transform: everything shown passes through it. */
  privacy: Transform;
  /** Called when a followed file's session should be rebuilt now (it has been quiet, or holds too much). */
  settle: (files: string[]) => void;
  /** Quiet time after the last append before the session is rebuilt (ms). */
  settleMs: number;
}

/** What `absorb` did with changed files. */
export interface Absorbed {
  /** Files the append path cannot show: their sessions are rebuilt. */
  rebuild: string[];
  /** Pages (URL paths) and the entries new on them. */
  appended: Map<string, TailItem[]>;
}

/** Live entries kept per file at most; more rebuild the session. */
const MAX_ITEMS = 400;

interface Followed {
  tail: FileTail;
  items: TailItem[];
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
    const appended = new Map<string, TailItem[]>();
    for (const file of files) {
      const followed = await this.follow(file);
      if (!followed) {
        rebuild.push(file);
        continue;
      }
      const read = await followed.tail.readNew();
      if (read.kind === 'restart') {
        followed.items = [];
        rebuild.push(file);
        continue;
      }
      const agent = basename(dirname(file)) === 'subagents';
      const batch = tailEntries(read.lines, {
        file,
        privacy: this.options.privacy,
        last: followed.tail.last,
        agent,
      });
      followed.tail.last = batch.last;
      if (batch.rebuild) {
        rebuild.push(file);
        continue;
      }
      if (batch.items.length > 0) {
        followed.items.push(...batch.items);
        appended.set(followed.page, [...(appended.get(followed.page) ?? []), ...batch.items]);
      }
      this.schedule(file, followed);
    }
    return { rebuild, appended };
  }

  /**
   * The live entries a page shows now, but those its HTML already holds.
   *
   * @param page A URL path, e.g. `/s/app/123/p3/`.
   * @param html The page as built.
   */
  itemsFor(page: string, html: string): TailItem[] {
    const items: TailItem[] = [];
    for (const f of this.followed.values())
      if (f.page === page)
        for (const item of f.items) if (!html.includes(`id="${item.id}"`)) items.push(item);
    return items;
  }

  /** A rebuild starts: what the files hold now is what its pages will show. */
  rebuilding(): void {
    this.snapshot = new Map([...this.followed].map(([file, f]) => [file, f.tail.offset]));
  }

  /**
   * A rebuild ended: the entries it read are dropped, pages are looked up again (a session may have a new last
   * page), and the transcripts' sizes noted for the files not followed yet.
   *
   * @param paths The inputs.
   */
  rebuilt(paths: readonly string[]): void {
    for (const [file, f] of this.followed) {
      const read = this.snapshot.get(file) ?? 0;
      f.items = f.items.filter((item) => item.offset >= read);
      // Nothing appended since the rebuild read the file: its pages are complete, no rebuild waits.
      if (f.tail.offset === read && f.timer) {
        clearTimeout(f.timer);
        f.timer = null;
      }
      const page = lastPage(this.options.root, file);
      if (page === null) this.drop(file);
      else f.page = page;
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
    const followed: Followed = { tail: await FileTail.open(file, size), items: [], page, timer: null };
    this.followed.set(file, followed);
    return followed;
  }

  private schedule(file: string, f: Followed): void {
    if (f.timer) clearTimeout(f.timer);
    const now = f.items.length >= MAX_ITEMS;
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

/**
 * The URL path of the last transcript page of a transcript's session (a main file) or agent (a file under
 * `<session>/subagents/`), when the report has that page; null otherwise (a session the report does not show,
 * or whose folder is not found under one name).
 */
function lastPage(root: string, file: string): string | null {
  const name = slug(basename(file, '.jsonl'));
  const agent = basename(dirname(file)) === 'subagents';
  const session = agent ? slug(basename(dirname(dirname(file)))) : name;
  let projects: string[];
  try {
    projects = readdirSync(join(root, 's'));
  } catch {
    return null;
  }
  const found = projects.filter((p) => existsSync(join(root, 's', p, session, 'index.html')));
  if (found.length !== 1) return null;
  const base = agent ? `s/${found[0]}/${session}/agent/${name}` : `s/${found[0]}/${session}`;
  if (!existsSync(join(root, base, 'index.html'))) return null;
  let last = 1;
  for (const entry of readdirSync(join(root, base))) {
    const page = /^p(\d+)$/.exec(entry);
    if (page && existsSync(join(root, base, entry, 'index.html'))) last = Math.max(last, Number(page[1]));
  }
  return `/${base}/${last > 1 ? `p${last}/` : ''}`;
}

/** The report's slug of an id (ids of sessions and agents are already `[a-z0-9-]` but for case). */
function slug(id: string): string {
  return id.toLowerCase();
}
