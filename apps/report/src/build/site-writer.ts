import {
  closeSync,
  constants,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  type Stats,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isPlainRelative, writeRecord } from './output-record.js';

/**
 * Everything a build puts into the output folder goes through one `SiteWriter`, which remembers it: at the end
 * the writer removes the files the last build wrote that this one did not (and nothing else), then writes the
 * folder's record (`output-record.ts`). Before its first write it records what the folder will hold, so a build
 * stopped half-way (a signal, a full disk) leaves a folder the next build knows as its own. It never follows a symbolic link inside the folder: a link where the
 * site needs a file or a folder is replaced by one (its target is not touched), and a path that passes through
 * a link is never removed. Another thread may write files of the site through a writer of its own (the search
 * index's, `search-thread.ts`), once this build's writer has recorded them (`plan`); this one then counts them as
 * the build's (`keep`).
 */

/** The entry at `path` without following a link, or `null` when there is none. */
function entryAt(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Writes over a file of one name in place, then cuts it to its new length. Truncating a file to nothing first, as
 * `writeFileSync` does, frees its blocks and allocates new ones; on ext4 that costs milliseconds a file (a rebuild
 * rewrites hundreds of search files: BENCHMARKS.md, "Rebuilds write over files in place").
 */
function overwrite(target: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(target, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    let at = 0;
    while (at < bytes.byteLength) at += writeSync(fd, bytes, at, bytes.byteLength - at, at);
    ftruncateSync(fd, bytes.byteLength);
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes the link at `dir`; what is there then: nothing, or a folder another writer of the site (another thread)
 * made in its place first.
 */
function removeLink(dir: string): Stats | null {
  try {
    unlinkSync(dir);
    return null;
  } catch (error) {
    const now = entryAt(dir);
    if (now === null || now.isDirectory()) return now;
    throw error;
  }
}

/** Makes a folder, unless another writer of the site (another thread) just made it. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !entryAt(dir)?.isDirectory()) throw error;
  }
}

/** The output folder as a build writes it (see the module comment). */
export class SiteWriter {
  private readonly own = new Set<string>();
  /** What the record says the folder holds until `commit`. */
  private readonly recorded = new Set<string>();
  /**
   * The folders of the site seen to be real folders (no link) in this build: a rebuild that keeps thousands of
   * pages looks at each folder once, not once per file in it.
   */
  private readonly folders = new Set<string>();
  /**
   * The regular files of each folder of the site listed in this build, by name: whether a kept file is still
   * there is known from one listing of its folder, not one `lstat` per file (a rebuild keeps the thousands of
   * search files of one folder). Files this writer writes or removes are added or taken out.
   */
  private readonly listings = new Map<string, Set<string>>();

  /** @param outDir The output folder (absolute). */
  constructor(readonly outDir: string) {}

  /**
   * Records, before anything is written, the files an earlier build wrote and those this build is about to write:
   * until `commit`, the folder is a report whose files are these.
   * @param previous The files the earlier build wrote.
   * @param planned The files this build will write or keep.
   */
  begin(previous: Iterable<string>, planned: Iterable<string>): void {
    for (const rel of [...previous, ...planned]) if (isPlainRelative(rel)) this.recorded.add(rel);
    writeRecord(this.outDir, this.recorded);
  }

  /**
   * Adds files to those recorded by `begin`, before they are written (files known only once the pages are).
   * @param planned The files this build will also write.
   */
  plan(planned: Iterable<string>): void {
    this.begin([], planned);
  }

  /**
   * Writes a file of the site, creating its folders.
   * @param rel Its path in the site, relative and `/`-separated.
   * @param data Its content.
   */
  write(rel: string, data: string | Uint8Array): void {
    const { target, inPlace } = this.fileFor(rel);
    if (inPlace) overwrite(target, data);
    else writeFileSync(target, data, { flag: 'wx' });
    this.wrote(rel, target);
  }

  /**
   * `write`, its folders made now and its bytes written in libuv's pool: the thread goes on meanwhile (a page
   * thread renders its next page).
   * @param rel Its path in the site, relative and `/`-separated.
   * @param data Its content.
   */
  async writeSoon(rel: string, data: Uint8Array): Promise<void> {
    const { target, inPlace } = this.fileFor(rel);
    if (inPlace) {
      const file = await open(target, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        let at = 0;
        while (at < data.byteLength)
          at += (await file.write(data, at, data.byteLength - at, at)).bytesWritten;
        await file.truncate(data.byteLength);
      } finally {
        await file.close();
      }
    } else await writeFile(target, data, { flag: 'wx' });
    this.wrote(rel, target);
  }

  /**
   * Where a file of the site goes, its folders made, and whether it is written in place: a file of this one name
   * is; whatever else is there (a link, or a file with other names: a backup made with hard links) is removed
   * first, so that only this name gets the new bytes.
   */
  private fileFor(rel: string): { target: string; inPlace: boolean } {
    const target = this.placeFor(rel);
    const entry = entryAt(target);
    if (entry?.isFile() && entry.nlink === 1) return { target, inPlace: true };
    if (entry) unlinkSync(target);
    return { target, inPlace: false };
  }

  /** The absolute path of a file of the site, its folders made (real folders: a link is replaced by one). */
  private placeFor(rel: string): string {
    if (!isPlainRelative(rel)) throw new Error(`the report cannot write ${JSON.stringify(rel)}`);
    const segments = rel.split('/');
    let dir = this.outDir;
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment);
      if (this.folders.has(dir)) continue;
      let entry = entryAt(dir);
      // A link is replaced by a folder, so nothing is written through it.
      if (entry?.isSymbolicLink()) entry = removeLink(dir);
      if (entry === null) makeFolder(dir);
      else if (!entry.isDirectory())
        throw new Error(`the report needs a folder at ${dir}, and a file is there`);
      this.folders.add(dir);
    }
    return join(this.outDir, rel);
  }

  /** Counts a file written as this build's. */
  private wrote(rel: string, target: string): void {
    this.listings.get(dirname(target))?.add(basename(target));
    this.own.add(rel);
  }

  /**
   * Whether the site holds a file at `rel` reached without a link (one a build can skip writing again).
   * @param rel A path in the site, relative and `/`-separated.
   */
  hasFile(rel: string): boolean {
    const segments = rel.split('/');
    if (!isPlainRelative(rel) || !this.realFolders(segments)) return false;
    const target = join(this.outDir, rel);
    return this.filesIn(dirname(target)).has(basename(target));
  }

  /** The names of the regular files (no link) in a folder of the site, listed once per build. */
  private filesIn(dir: string): Set<string> {
    let names = this.listings.get(dir);
    if (names === undefined) {
      names = new Set();
      try {
        for (const entry of readdirSync(dir, { withFileTypes: true }))
          if (entry.isFile()) names.add(entry.name);
      } catch {
        // No folder (or not one): no file in it.
      }
      this.listings.set(dir, names);
    }
    return names;
  }

  /** Whether every folder on the way to a path of the site is a real folder (no link). */
  private realFolders(segments: readonly string[]): boolean {
    let dir = this.outDir;
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment);
      if (this.folders.has(dir)) continue;
      if (!entryAt(dir)?.isDirectory()) return false;
      this.folders.add(dir);
    }
    return true;
  }

  /**
   * Counts a file that is in place as this build's: a page kept from the last build, unchanged, or a file another
   * thread wrote.
   * @param rel Its path in the site, relative and `/`-separated.
   */
  keep(rel: string): void {
    if (isPlainRelative(rel)) this.own.add(rel);
  }

  /**
   * Removes the files an earlier build wrote that this build has not written or kept, and the folders that
   * became empty through that. A path that is not plain, passes through a link, or is not a regular file is
   * left alone.
   * @param previous The files the earlier build wrote (from its record or its state).
   * @returns How many files were removed.
   */
  removeStale(previous: Iterable<string>): number {
    let removed = 0;
    // Folders that may have become empty, tried once each after the files are gone, deepest first (a folder of a
    // hundred thousand pages is not listed again after each file removed from it).
    const emptied = new Set<string>();
    for (const rel of previous) {
      if (this.own.has(rel) || !this.hasFile(rel) || rel.startsWith('.cctrail')) continue;
      const target = join(this.outDir, rel);
      unlinkSync(target);
      this.listings.get(dirname(target))?.delete(basename(target));
      removed++;
      const segments = rel.split('/');
      for (let depth = segments.length - 1; depth > 0; depth--)
        emptied.add(segments.slice(0, depth).join('/'));
    }
    const depthOf = (rel: string) => rel.split('/').length;
    for (const rel of [...emptied].sort((a, b) => depthOf(b) - depthOf(a))) {
      const dir = join(this.outDir, rel);
      if (entryAt(dir)?.isDirectory() && readdirSync(dir).length === 0) {
        rmdirSync(dir);
        this.folders.delete(dir);
        this.listings.delete(dir);
      }
    }
    return removed;
  }

  /** Writes the folder's record, listing every file this build wrote or kept; the build's last write. */
  commit(): void {
    writeRecord(this.outDir, this.own);
  }
}
