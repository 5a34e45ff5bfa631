/**
 * The pages `cctrail report --watch` writes by the append path: a session's last transcript page, its built
 * HTML with the live window's cards in place of its last ones, written into the report folder. The built page
 * is kept until the session's next rebuild: the report's rebuild writes a page only when its bytes differ from
 * its last build's, so a page it leaves as it was (a rewritten transcript drawn as before) would keep the live
 * HTML; the built one is then put back.
 */

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeIfChanged } from '../files/atomic-write.js';

interface Written {
  /** The page as the last build wrote it. */
  built: string;
  /** Its file's identity after the live write (a rebuild that writes it changes it). */
  ino: number;
  mtimeMs: number;
}

/** The pages of a report folder written by the append path since the last rebuild. */
export class LivePages {
  private readonly written = new Map<string, Written>();

  /** @param root The report folder. */
  constructor(private readonly root: string) {}

  /**
   * Writes a page as the append path shows it.
   *
   * @param page Its URL path (`/s/app/123/p3/`).
   * @param show The page's HTML from its built HTML (`LiveTails.pageFor`).
   */
  async write(page: string, show: (built: string) => string): Promise<void> {
    const file = this.file(page);
    const built = this.written.get(page)?.built ?? readFileSync(file, 'utf8');
    await writeIfChanged(file, show(built));
    const { ino, mtimeMs } = statSync(file);
    this.written.set(page, { built, ino, mtimeMs });
  }

  /** A rebuild ended: the pages it left as they were get their built HTML back. */
  async rebuilt(): Promise<void> {
    for (const [page, w] of this.written) {
      const file = this.file(page);
      const now = statSync(file, { throwIfNoEntry: false });
      if (now && now.ino === w.ino && now.mtimeMs === w.mtimeMs) await writeIfChanged(file, w.built);
    }
    this.written.clear();
  }

  private file(page: string): string {
    return join(this.root, page, 'index.html');
  }
}
