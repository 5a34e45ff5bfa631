/**
 * Streams a session as JSON text. For a session built with `content: false`, each entry and metadata record is
 * restored from its source line as it is written, so memory stays bounded by the structure, not by the content:
 * the text is byte-identical to `JSON.stringify` of the same session built with content.
 */

import type { Entry, MetadataRecord } from '../model/entry.js';
import type { Session } from '../model/session.js';
import { type Line, readLines } from '../read/read-lines.js';
import type { SessionSource, TranscriptSource } from '../source.js';
import { recordAt, withContent } from './restore.js';

/**
 * Yields the JSON text of a session in pieces (one per entry, record or top-level field).
 *
 * @param session A built session.
 * @param source Its files: when given, entries and metadata get their content back from the source lines (use it
 *   for sessions built with `content: false`; the files must not have changed since).
 * @param options `transform` is applied to every piece before it is written: each entry, each metadata record,
 *   each item of the other top-level arrays, and each other top-level field (e.g. to redact secrets without
 *   holding the whole session).
 */
export async function* sessionJson(
  session: Session,
  source?: SessionSource,
  options: { transform?: <T>(value: T) => T } = {},
): AsyncGenerator<string> {
  const transform = options.transform ?? (<T>(value: T) => value);
  const files = new Map<string, TranscriptSource>();
  if (source?.main) files.set(source.main.path, source.main);
  for (const agent of source?.agents ?? []) files.set(agent.path, agent);
  let first = true;
  for (const [key, value] of Object.entries(session)) {
    yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (key === 'entries')
      yield* items(session.entries, files, (e, line) => withContent(e, line.text), transform);
    else if (key === 'metadata') yield* items(session.metadata, files, restoreMetadata, transform);
    else if (Array.isArray(value)) yield* arrayJson(value, transform);
    else yield JSON.stringify(transform(value));
  }
  yield '}';
}

/** Items of a top-level array written per piece: about this many characters each. */
const PIECE = 1 << 16;

/**
 * The JSON text of a top-level array (responses, tool calls, diagnostics, …), in pieces of about `PIECE`
 * characters, each item transformed alone: the same text as `JSON.stringify` of the whole array, without the one
 * string of it (half a million responses of a huge session make 170 MB of text, and as much again in bytes).
 */
function* arrayJson(list: readonly unknown[], transform: <T>(value: T) => T): Generator<string> {
  let piece = '[';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) piece += ',';
    // As `JSON.stringify` writes an item that has no JSON form (undefined, a function) in an array.
    piece += JSON.stringify(transform(list[i])) ?? 'null';
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]`;
}

function restoreMetadata(record: MetadataRecord, line: Line): MetadataRecord {
  const full = recordAt(line.text, record.source.part ?? 0);
  return full ? { ...record, record: full } : record;
}

/**
 * Writes a JSON array of items that are in file order (files in the order they were read), reading each file
 * once, sequentially, alongside.
 */
async function* items<T extends Entry | MetadataRecord>(
  list: readonly T[],
  files: ReadonlyMap<string, TranscriptSource>,
  restore: (item: T, line: Line) => T,
  transform: <V>(value: V) => V,
): AsyncGenerator<string> {
  // Items are joined into pieces of about `PIECE` characters: a piece per item cost a turn of the async iteration
  // each, millions of them in an archive.
  let piece = '[';
  let i = 0;
  while (i < list.length) {
    const path = list[i]!.source.file;
    const file = files.get(path);
    const lines = file ? readLines(file.read())[Symbol.asyncIterator]() : null;
    let line: Line | null = null;
    for (; i < list.length && list[i]!.source.file === path; i++) {
      const item = list[i]!;
      while (lines && (line === null || line.number < item.source.line)) {
        const next = await lines.next();
        if (next.done) break;
        line = next.value;
      }
      const restored = line !== null && line.number === item.source.line ? restore(item, line) : item;
      if (i > 0) piece += ',';
      piece += JSON.stringify(transform(restored));
      if (piece.length >= PIECE) {
        yield piece;
        piece = '';
      }
    }
    await lines?.return?.(undefined);
  }
  yield `${piece}]`;
}
