import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createBrotliDecompress } from 'node:zlib';
import { type SessionItem, sessionItems } from '@cctrail/core/archive';
import type { Diagnostic, Entry, Session } from '../views/model.js';
import { PageMarks } from '../views/transcript/paginate.js';
import { DIAGNOSTICS_SHOWN } from '../views/transcript/transcript-fragment.js';
import { fileError } from './load.js';

/**
 * The reads of a session file too large to read whole (over `sessionJsonLimit`, one JSON document of more than
 * 512 MiB for a session of a million lines): its fields and entries come one at a time from the file's bytes
 * (`sessionItems`), and nothing holds the whole session. A first read takes the session without its entries (its
 * header); a second marks each transcript's entries for pagination and keeps the few entries that pages look up
 * by uuid; `paged-session.ts` then renders the pages in a third.
 */

/** The arrays read item by item. */
const LISTED = new Set(['entries', 'metadata', 'responses', 'diagnostics']);

/** Where an entry is shown: its transcript (null: the main one, else a sidechain's id) and its index there. */
interface ScopePlace {
  sidechain: string | null;
  index: number;
}

/** What the second read found. */
export interface PagedIndex {
  /** Marks of the active path's entries. */
  main: PageMarks;
  /** Marks of each sidechain's entries, by id. */
  sidechains: Map<string, PageMarks>;
  /** Where each entry kept is shown (entries of the active path and of sidechains). */
  places: Map<string, ScopePlace>;
}

/** A session read without its entries, and the count of its diagnostics (only the first ones are kept). */
export interface PagedHeader {
  session: Session;
  diagnosticsTotal: number;
}

/** The bytes of a session file, decompressed when its name ends in `.br`; its streams are closed when it ends. */
async function* sessionBytes(file: string): AsyncGenerator<Uint8Array> {
  const read = createReadStream(file, { highWaterMark: 1 << 20 });
  if (!file.endsWith('.br')) {
    try {
      yield* read;
    } finally {
      read.destroy();
    }
    return;
  }
  const unpacked = createBrotliDecompress();
  // A failure of either stream ends the other and the loop below with it.
  pipeline(read, unpacked, () => {});
  try {
    yield* unpacked;
  } finally {
    unpacked.destroy();
  }
}

/** Brotli packs a session's JSON 20 to 60 times (a million tiny lines: 50 ×); a file packed less than this is small. */
const PACKED_AT_MOST = 256;

/**
 * True when a session file holds more than `limit` bytes of JSON. A compressed one that could is decompressed as
 * a stream and counted, nothing kept, instead of being decompressed whole up to the limit (512 MiB in memory)
 * only to be refused; one that cannot is not read (if it does hold more, its read whole refuses it).
 *
 * @param bytes The file's size.
 */
export async function holdsMoreThan(file: string, bytes: number, limit: number): Promise<boolean> {
  if (!file.endsWith('.br')) return bytes > limit;
  if (bytes * PACKED_AT_MOST <= limit) return false;
  let total = 0;
  try {
    for await (const chunk of sessionBytes(file)) {
      total += chunk.length;
      if (total > limit) return true;
    }
  } catch {
    // An unreadable file: its read whole says why.
  }
  return false;
}

/** The items of a session file, skipping `skipped`. */
export function pagedItems(file: string, skipped: ReadonlySet<string>): AsyncGenerator<SessionItem> {
  return sessionItems(sessionBytes(file), { listed: LISTED, skipped });
}

/**
 * The session without its entries, metadata and responses, and with its first diagnostics only.
 * @returns The header, or why the file could not be read.
 */
export async function readPagedHeader(file: string): Promise<PagedHeader | { errors: string[] }> {
  const session: Record<string, unknown> = {};
  const diagnostics: Diagnostic[] = [];
  let diagnosticsTotal = 0;
  try {
    for await (const item of pagedItems(file, new Set(['entries', 'metadata', 'responses']))) {
      if (item.field === 'diagnostics') {
        if (diagnosticsTotal++ < DIAGNOSTICS_SHOWN) diagnostics.push(item.value as Diagnostic);
      } else if (item.index < 0) session[item.field] = item.value;
    }
  } catch (error) {
    return { errors: [fileError(file, error)] };
  }
  Object.assign(session, { entries: [], metadata: [], responses: [], diagnostics });
  return { session: session as unknown as Session, diagnosticsTotal };
}

/**
 * The uuids of the entries that pages look up by uuid: branch points, compactions, the spawns of sidechains,
 * their first entries and the results of their calls.
 */
function lookedUp(session: Session): Set<string> {
  const out = new Set<string>();
  const add = (uuid: string | null | undefined) => {
    if (uuid) out.add(uuid);
  };
  for (const b of session.branches) add(b.branchPoint);
  for (const c of session.compactions) add(c.uuid);
  const calls = new Map(session.tools.map((t) => [t.id, t]));
  for (const sc of session.sidechains) {
    add(sc.spawn?.entryUuid);
    add(sc.rootUuid);
    add(calls.get(sc.spawn?.toolUseId ?? '')?.resultUuid);
  }
  return out;
}

/** True for a value a renderer can take as an entry (the file is cctrail's own, but it is read back). */
function isEntry(value: unknown): value is Entry {
  const e = value as Entry | null;
  return typeof e?.uuid === 'string' && Array.isArray(e.content) && typeof e.source === 'object';
}

/**
 * Marks every transcript's entries for pagination and puts into `header.entries`, in file order, the entries
 * pages look up by uuid and the entries of abandoned branches (neither on the active path nor in a sidechain).
 */
export async function indexPagedEntries(
  file: string,
  header: Session,
): Promise<PagedIndex | { errors: string[] }> {
  const wanted = lookedUp(header);
  const index: PagedIndex = { main: new PageMarks(), sidechains: new Map(), places: new Map() };
  const held: Entry[] = [];
  let at = 0;
  try {
    for await (const item of pagedItems(file, new Set(['metadata', 'responses', 'diagnostics']))) {
      if (item.field !== 'entries') continue;
      if (!isEntry(item.value))
        return { errors: [fileError(file, new Error(`entry ${at} is not an entry`))] };
      at++;
      const e = item.value;
      let place: ScopePlace | null = null;
      if (e.sidechain !== null) {
        let marks = index.sidechains.get(e.sidechain);
        if (!marks) {
          marks = new PageMarks();
          index.sidechains.set(e.sidechain, marks);
        }
        place = { sidechain: e.sidechain, index: marks.count };
        marks.add(e);
      } else if (e.active) {
        place = { sidechain: null, index: index.main.count };
        index.main.add(e);
      }
      if (place === null || wanted.has(e.uuid)) held.push(e);
      if (place !== null && wanted.has(e.uuid)) index.places.set(e.uuid, place);
    }
  } catch (error) {
    return { errors: [fileError(file, error)] };
  }
  header.entries = held;
  return index;
}
