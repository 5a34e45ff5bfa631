import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { COMPRESSED, writeIfChanged } from '../files/atomic-write.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { codeVersion } from './build-id.js';
import { fingerprint } from './export-state.js';
import type { FileStat } from './file-stats.js';
import type { SessionInput } from './jobs.js';
import { skeletonJson } from './jobs.js';

/** The first line of a skeletons file; then one skeleton a line, `"fingerprint":{…}` (see `save`). */
const SKELETONS_HEAD = '{"schemaVersion":1,"skeletons":{';

/** The name of a block of a folder cache (see `SkeletonCache.openBlocks`): its keys' first hex digit. */
const BLOCK = /^([0-9a-f])\.json\.br$/;

/** Decompressed in libuv's pool, not on the thread that waits. */
const decompress = promisify(brotliDecompress);

/**
 * A skeleton's JSON text as the store holds it: the bytes of its line in the file read, decoded only when it is
 * parsed or written again. A file's text is never made whole (26 MB of strings for a 555-session archive, which
 * cost a rebuild a full garbage collection before it had done anything else).
 */
interface Stored {
  bytes: Buffer;
  start: number;
  end: number;
}

/** A skeleton's JSON text, or where it is in a file read. */
type SkeletonText = string | Stored;

function textOf(text: SkeletonText): string {
  return typeof text === 'string' ? text : text.bytes.toString('utf8', text.start, text.end);
}

/**
 * Where skeletons are kept: one file, or a folder of blocks (`<first hex digit of the key>.json.br`), of which
 * a run rewrites only those whose skeletons changed.
 */
type Store =
  | { kind: 'file'; file: string }
  | { kind: 'blocks'; dir: string; found: Set<string>; legacy: string | undefined; fromLegacy: boolean };

/**
 * Skeletons kept between runs, keyed by a fingerprint of the session's files (size and modification time) and of
 * the code, so a session whose files did not change is not read again. A run keeps the skeletons of the sessions
 * it saw (see `put` and `keepOthers`); a cache that cannot be read or written only costs a run its time.
 */
export class SkeletonCache {
  readonly #store: Store | undefined;
  /** What the store held, by fingerprint, as JSON text: a hit is parsed alone, and written back as read. */
  readonly #cached: Map<string, Stored>;
  readonly #kept = new Map<string, SkeletonText>();
  /** The blocks a skeleton built in this run goes to (a folder cache). */
  readonly #builtIn = new Set<string>();
  #built = 0;

  private constructor(store: Store | undefined, cached: Map<string, Stored>) {
    this.#store = store;
    this.#cached = cached;
  }

  /**
   * Opens a cache file (none is no cache: every lookup misses and nothing is saved).
   *
   * @param file The file, absolute; missing or damaged files hold nothing.
   */
  static async open(file: string | undefined): Promise<SkeletonCache> {
    if (file === undefined) return new SkeletonCache(undefined, new Map());
    return new SkeletonCache({ kind: 'file', file }, await readSkeletons(file));
  }

  /**
   * Opens a cache kept in a folder of compressed blocks, one per first hex digit of the keys: a run after one
   * session changed rewrites at most the two blocks of its old and new keys, not every skeleton. The blocks are
   * read and decompressed at once, in libuv's pool (the report starts this while its modules load).
   *
   * @param dir The folder, absolute; missing or damaged blocks hold nothing.
   * @param legacy A one-file cache of an earlier version: read when the folder holds no block, removed once the
   *   blocks are saved.
   */
  static async openBlocks(dir: string, legacy?: string): Promise<SkeletonCache> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const found = new Set(names.flatMap((name) => BLOCK.exec(name)?.[1] ?? []));
    const fromLegacy = found.size === 0 && legacy !== undefined;
    const files = fromLegacy ? [legacy] : [...found].map((block) => blockFile(dir, block));
    const cached = new Map<string, Stored>();
    for (const block of await Promise.all(files.map(readSkeletons)))
      for (const [key, text] of block) cached.set(key, text);
    return new SkeletonCache({ kind: 'blocks', dir, found, legacy, fromLegacy }, cached);
  }

  /**
   * The key of a session's skeleton, or null without a cache.
   *
   * @param known The key when the caller has it already (`skeletonKey(files)`).
   */
  key(files: readonly FileStat[], known?: string): string | null {
    return this.#store === undefined ? null : (known ?? skeletonKey(files));
  }

  /** The cached skeleton under a key (kept for the next run), or undefined. */
  get(key: string | null): Skeleton | undefined {
    const text = key === null ? undefined : this.#cached.get(key);
    const skeleton = text === undefined ? undefined : parseSkeleton(textOf(text));
    if (skeleton) this.#kept.set(key!, text!);
    return skeleton;
  }

  /** Keeps a skeleton built in this run (as built: before duplicates are marked). */
  put(key: string | null, skeleton: Skeleton): void {
    this.#built++;
    if (key === null) return;
    this.#kept.set(key, skeletonJson(skeleton));
    this.#builtIn.add(blockOf(key));
  }

  /** Keeps also the cached skeletons of the sessions this run did not select (a run that selected some only). */
  keepOthers(selection: readonly SessionInput[]): void {
    const here = new Set(selection.map((s) => JSON.stringify([s.discovered.project, s.discovered.id])));
    for (const [key, text] of this.#cached) {
      if (this.#kept.has(key)) continue;
      const skeleton = parseSkeleton(textOf(text));
      if (skeleton && !here.has(JSON.stringify([skeleton.project, skeleton.id]))) this.#kept.set(key, text);
    }
  }

  /** Writes the skeletons kept, and only those, unless the store holds them already. */
  async save(): Promise<void> {
    const store = this.#store;
    if (store === undefined) return;
    if (store.kind === 'file') {
      if (this.#built === 0 && this.#kept.size === this.#cached.size) return;
      await writeIfChanged(store.file, skeletonsText([...this.#kept.keys()], this.#kept)).catch(
        () => undefined,
      );
      return;
    }
    await this.#saveBlocks(store).catch(() => undefined);
  }

  /**
   * Writes the blocks whose skeletons changed: one that got a skeleton built in this run, or lost one it held
   * (what a block keeps is what it held and what was built into it, so equal counts mean equal blocks).
   */
  async #saveBlocks(store: Extract<Store, { kind: 'blocks' }>): Promise<void> {
    const kept = groupByBlock(this.#kept.keys());
    const held = store.fromLegacy ? new Map<string, string[]>() : groupByBlock(this.#cached.keys());
    const writes: Promise<unknown>[] = [];
    // A block file found is removed when it keeps nothing (damaged, or its sessions gone).
    for (const block of new Set([...kept.keys(), ...held.keys(), ...store.found])) {
      const keys = kept.get(block) ?? [];
      const file = blockFile(store.dir, block);
      if (keys.length === 0) writes.push(rm(file, { force: true }));
      else if (this.#builtIn.has(block) || keys.length !== held.get(block)?.length)
        writes.push(writeIfChanged(file, skeletonsText(keys, this.#kept)));
    }
    await Promise.all(writes);
    if (store.legacy !== undefined) await rm(store.legacy, { force: true });
  }
}

function blockFile(dir: string, block: string): string {
  return join(dir, `${block}.json${COMPRESSED}`);
}

/** The block of a key: its first character (a hex digit: keys are SHA-256 digests). */
function blockOf(key: string): string {
  return /^[0-9a-f]/.test(key) ? key[0]! : '0';
}

function groupByBlock(keys: Iterable<string>): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  for (const key of keys) {
    const block = blockOf(key);
    const list = blocks.get(block);
    if (list) list.push(key);
    else blocks.set(block, [key]);
  }
  return blocks;
}

/**
 * The text of a skeletons file, in pieces: the head, then one `"key":{…}` a line, in the order of the keys. Never
 * joined into one string: a 26 MB string made of a thousand pieces is flattened and encoded whole by the write,
 * on this thread, after the last session is built (0.1–0.25 s of a loaded run's tail); pieces are encoded one by
 * one into the write's batch buffer.
 */
function* skeletonsText(keys: string[], texts: ReadonlyMap<string, SkeletonText>): Generator<string> {
  yield `${SKELETONS_HEAD}\n`;
  let first = true;
  for (const key of keys.sort()) {
    yield `${first ? '' : ',\n'}${JSON.stringify(key)}:`;
    yield textOf(texts.get(key)!);
    first = false;
  }
  yield '\n}}\n';
}

/**
 * The key of a session's skeleton: a fingerprint of its files (paths, sizes, modification times) and of the code.
 *
 * @param files The session's files, as `sourceStats` gives them.
 */
export function skeletonKey(files: readonly FileStat[]): string {
  return fingerprint([codeVersion()], files);
}

/** The bytes of a skeletons file's first line, and those that end a line's key and its line. */
const HEAD_BYTES = Buffer.from(SKELETONS_HEAD);
const KEY_END = Buffer.from('":');
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * The skeletons of a cache file by fingerprint, as the places of their JSON text in the file's bytes (none when it
 * is missing or not one a line).
 */
async function readSkeletons(file: string): Promise<Map<string, Stored>> {
  const kept = new Map<string, Stored>();
  let bytes: Buffer;
  try {
    const read = await readFile(file);
    // Written compressed when its name says so (`writeIfChanged`).
    // In pieces of 1 MiB: each piece is handed to this thread (16 KiB by default: 1,600 hand-overs for a cache).
    bytes = file.endsWith(COMPRESSED) ? await decompress(read, { chunkSize: 1 << 20 }) : read;
  } catch {
    return kept;
  }
  let end = bytes.indexOf(NEWLINE);
  if (end === -1) end = bytes.length;
  if (!bytes.subarray(0, end).equals(HEAD_BYTES)) return kept;
  for (let start = end + 1; start < bytes.length; start = end + 1) {
    end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    const at = bytes.indexOf(KEY_END, start);
    // The closing line, and any damaged line, are no skeleton.
    if (bytes[start] !== QUOTE || at === -1 || at >= end) continue;
    kept.set(bytes.toString('utf8', start + 1, at), {
      bytes,
      start: at + 2,
      end: bytes[end - 1] === COMMA ? end - 1 : end,
    });
  }
  return kept;
}

/** A kept skeleton, or undefined when its text is damaged (the session is then built again). */
function parseSkeleton(text: string): Skeleton | undefined {
  try {
    const skeleton = JSON.parse(text) as Skeleton;
    return typeof skeleton === 'object' && skeleton !== null && typeof skeleton.id === 'string'
      ? skeleton
      : undefined;
  } catch {
    return undefined;
  }
}
