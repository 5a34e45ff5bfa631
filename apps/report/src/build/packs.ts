import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * The build cache's packs: one file per session version, `packs/<key>.pack`, holding everything a build caches
 * for it (its part, its transcript fragments, their images' places, its search piece) as named entries. Creating
 * a file costs a build more than writing one (a cold report made seven files per session, each creation blocking
 * its thread: BENCHMARKS.md, "#26 build-cache packs, ninth round"), so a session's entries go into one temporary
 * file, `<pack>.tmp-<pid>`, renamed over the pack once its index is written last: a pack is complete or absent,
 * never half-read as complete. A pack is written whole again when its session gains entries (new routes), the
 * entries it keeps copied as they are.
 *
 * Layout: the entries' bytes one after the other, then the index (JSON: `[[name, offset, length], …]`), its byte
 * length (4 bytes, little-endian) and `MAGIC`. An entry's name starts with the session's key (`nameKey`).
 */

const MAGIC = Buffer.from('cctpack1', 'latin1');
const TRAILER = 4 + MAGIC.length;
const FOLDER = 'packs';

/** The session key an entry's name starts with (16 hex digits, before its first `-` or `.`). */
export function nameKey(name: string): string {
  return name.split(/[-.]/)[0] ?? '';
}

/** The pack of a session version. */
function packFile(cacheDir: string, key: string): string {
  return join(cacheDir, FOLDER, `${key}.pack`);
}

type Index = Map<string, readonly [offset: number, length: number]>;

/**
 * Indexes read lately, by file: a pack is never written in place (a new one is a new inode). A build asks about
 * every session's pack in turn more than once (its part, its pages, its search piece): a few thousand indexes, of
 * a few hundred bytes each, are remembered.
 */
const indexes = new Map<string, { ino: number; size: number; mtime: number; index: Index }>();
const REMEMBERED = 4096;

function readAt(fd: number, offset: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, offset + done);
    if (n === 0) throw new Error('a pack of the build cache ends early');
    done += n;
  }
  return out;
}

/** The index of an open pack, or null when the file is not a complete pack. */
function indexOf(fd: number, file: string): Index | null {
  const st = fstatSync(fd);
  const known = indexes.get(file);
  if (known && known.ino === st.ino && known.size === st.size && known.mtime === st.mtimeMs)
    return known.index;
  if (st.size < TRAILER) return null;
  const trailer = readAt(fd, st.size - TRAILER, TRAILER);
  if (!trailer.subarray(4).equals(MAGIC)) return null;
  const length = trailer.readUInt32LE(0);
  if (length > st.size - TRAILER) return null;
  let list: [string, number, number][];
  try {
    list = JSON.parse(readAt(fd, st.size - TRAILER - length, length).toString('utf8'));
  } catch {
    return null;
  }
  const index: Index = new Map(list.map(([name, offset, size]) => [name, [offset, size] as const]));
  if (indexes.size >= REMEMBERED) indexes.delete(indexes.keys().next().value as string);
  indexes.set(file, { ino: st.ino, size: st.size, mtime: st.mtimeMs, index });
  return index;
}

/** Runs `read` on the open pack of `key` and its index; null when there is no complete pack. */
function withPack<T>(cacheDir: string, key: string, read: (fd: number, index: Index) => T): T | null {
  const file = packFile(cacheDir, key);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const index = indexOf(fd, file);
    return index ? read(fd, index) : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * True when the cache holds the entry `name`. A pack whose index was read lately is only looked at (`stat`), not
 * opened: a build asks this of every page of every session.
 */
export function hasEntry(cacheDir: string, name: string): boolean {
  const key = nameKey(name);
  const file = packFile(cacheDir, key);
  const known = indexes.get(file);
  if (known) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) return false;
    if (known.ino === st.ino && known.size === st.size && known.mtime === st.mtimeMs)
      return known.index.has(name);
  }
  return withPack(cacheDir, key, (_, index) => index.has(name)) === true;
}

/**
 * The bytes of cached entries, read from their session's pack with one open (all names start with the same key).
 * @returns Each entry's bytes, null for those the cache lacks.
 */
export function readEntries(cacheDir: string, names: readonly string[]): (Buffer | null)[] {
  const key = nameKey(names[0] ?? '');
  const read = withPack(cacheDir, key, (fd, index) =>
    names.map((name) => {
      const at = index.get(name);
      return at ? readAt(fd, at[0], at[1]) : null;
    }),
  );
  return read ?? names.map(() => null);
}

/** The bytes of the cached entry `name`, or null. */
export function readEntry(cacheDir: string, name: string): Buffer | null {
  return readEntries(cacheDir, [name])[0] ?? null;
}

/**
 * Writes the pack of one session version: entries are put as they are made (straight into the temporary file,
 * so a session read page by page holds none of them), entries of the pack already there are kept by name, and
 * `commit` writes the index and renames the file into place. Nothing is written when nothing was put.
 */
export class PackWriter {
  readonly #cacheDir: string;
  readonly #key: string;
  readonly #file: string;
  readonly #temporary: string;
  #old: Index | null | undefined;
  #fd: number | null = null;
  #size = 0;
  readonly #written: [string, number, number][] = [];
  readonly #names = new Set<string>();
  readonly #kept = new Set<string>();

  /** @param key The session version's key (`keyOf`); every entry's name starts with it. */
  constructor(cacheDir: string, key: string) {
    this.#cacheDir = cacheDir;
    this.#key = key;
    this.#file = packFile(cacheDir, key);
    this.#temporary = `${this.#file}.tmp-${process.pid}`;
  }

  #oldIndex(): Index | null {
    if (this.#old === undefined) this.#old = withPack(this.#cacheDir, this.#key, (_, index) => index) ?? null;
    return this.#old;
  }

  /** True when the pack already there holds `name`; it is then kept in the pack written. */
  keep(name: string): boolean {
    if (this.#names.has(name)) return true;
    if (!this.#oldIndex()?.has(name)) return false;
    this.#kept.add(name);
    return true;
  }

  /** The bytes of `name` in the pack already there, or null. */
  old(name: string): Buffer | null {
    return this.#oldIndex()?.has(name) ? readEntry(this.#cacheDir, name) : null;
  }

  /** Puts an entry (a name put twice keeps its last bytes). */
  put(name: string, bytes: Uint8Array): void {
    if (nameKey(name) !== this.#key) throw new Error(`the entry ${name} is not of the pack ${this.#key}`);
    if (this.#fd === null) {
      try {
        this.#fd = openSync(this.#temporary, 'w');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(join(this.#cacheDir, FOLDER), { recursive: true });
        this.#fd = openSync(this.#temporary, 'w');
      }
    }
    this.#append(bytes);
    this.#written.push([name, this.#size - bytes.byteLength, bytes.byteLength]);
    this.#names.add(name);
    this.#kept.delete(name);
  }

  #append(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(this.#fd as number, bytes, done);
    this.#size += bytes.byteLength;
  }

  /** Writes the pack (when anything was put): the entries kept, the index, then renames it into place. */
  commit(): void {
    if (this.#fd === null) return;
    try {
      if (this.#kept.size > 0) {
        const kept = [...this.#kept];
        const bytes = readEntries(this.#cacheDir, kept);
        kept.forEach((name, i) => {
          const b = bytes[i];
          if (!b) throw new Error(`the entry ${name} left the build cache while its pack was written`);
          this.put(name, b);
        });
      }
      const last = new Map(this.#written.map((w) => [w[0], w]));
      const index = Buffer.from(JSON.stringify([...last.values()]), 'utf8');
      const trailer = Buffer.alloc(TRAILER);
      trailer.writeUInt32LE(index.byteLength, 0);
      MAGIC.copy(trailer, 4);
      this.#append(index);
      this.#append(trailer);
      closeSync(this.#fd);
      this.#fd = null;
      renameSync(this.#temporary, this.#file);
    } catch (error) {
      this.abort();
      throw error;
    }
  }

  /** Drops what was put (the pack already there stays). */
  abort(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    rmSync(this.#temporary, { force: true });
  }
}
