import { shrinkLine, type Unread } from '../lean/shrink-line.js';

/** One line of a transcript, with where it was. */
export interface Line {
  /** 1-based line number. */
  number: number;
  /** Byte offset of the first byte. */
  offset: number;
  /** Length in bytes, without the newline (and without a trailing `\r`). */
  length: number;
  /** The line decoded as UTF-8 (invalid bytes replaced with U+FFFD). */
  text: string;
  /** The bytes were not valid UTF-8. */
  invalidUtf8: boolean;
  /** False for a last line that is not followed by a newline. */
  terminated: boolean;
  /** When `text` was shrunk (see `ReadOptions.shrinkAbove`): the line's full bytes. */
  full?: Uint8Array;
  /** The line is longer than `ReadOptions.maxLineBytes`: `text` is only its first bytes, `length` its size. */
  oversize?: boolean;
}

/** Options of `readLines`. */
export interface ReadOptions {
  /**
   * Lines longer than this many bytes get their long string values cut to `keep` bytes before decoding (the
   * full bytes are still checked for UTF-8 and kept in `Line.full`). For structure-only reading.
   */
  shrinkAbove?: number;
  /** UTF-16 code units kept of each long string value when shrinking (default 4000). */
  keep?: number;
  /** When shrinking: the string values the reader never uses, emptied whatever their length. */
  unread?: Unread;
  /**
   * Lines longer than this many bytes are not decoded (default `MAX_LINE_BYTES`): such a line comes with
   * `oversize` and only its first bytes as `text`.
   */
  maxLineBytes?: number;
}

/**
 * The longest line decoded: 32 MiB. Far below V8's longest string (512 MiB): a line becomes strings, records,
 * redacted copies and rendered pages, about twenty-five times its size at the peak of a report, and every
 * command stays under 1.5 GiB of memory whatever the input (figures in BENCHMARKS.md, "#31 limits").
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** Bytes of an oversize line kept as its `text`. */
const OVERSIZE_PREFIX = 4000;

// Node's native UTF-8 validator when the runtime offers it (asked of the runtime, not imported, so that core
// loads in a browser); elsewhere the strict decoder does the check.
const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const buffer = runtime?.getBuiltinModule?.('buffer') as
  | { isUtf8?: (bytes: Uint8Array) => boolean }
  | undefined;
const isUtf8: ((bytes: Uint8Array) => boolean) | null = buffer?.isUtf8 ?? null;

/**
 * A chunk's lines are handed over in batches of about this many bytes: the decoded text of a batch is alive
 * until its last line is read, so a whole file's text in one batch would outlive many young-generation
 * collections and be copied by each.
 */
const BATCH_BYTES = 256 * 1024;

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Splits a byte stream into lines, without ever holding more than the current chunk and one partial line.
 * A chunk's bytes are not used after the next chunk is asked for, so a source may reuse its buffers.
 * An empty stream yields nothing; a final newline does not produce an empty last line.
 *
 * @param chunks The file's bytes, in chunks of any size.
 */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadOptions = {},
): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(chunks, options)) yield* batch;
}

/**
 * `readLines`, a batch at a time: the lines that end in each chunk, in arrays of about `BATCH_BYTES`. Readers of
 * whole sessions use it, because one step of an async iterator per line costs more than the rest of reading a
 * short line.
 * The lines of a batch may refer to the chunk's bytes (`Line.full`): use them before asking for the next batch.
 *
 * @param chunks The file's bytes, in chunks of any size.
 */
export async function* readLineBatches(
  chunks: AsyncIterable<Uint8Array>,
  options: ReadOptions = {},
): AsyncGenerator<Line[]> {
  const shrinkAbove = options.shrinkAbove ?? Number.POSITIVE_INFINITY;
  const keep = options.keep ?? 4000;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const { unread } = options;
  let number = 0;
  let offset = 0;
  // Pieces of a line that spans chunks; past `maxLineBytes`, only its first bytes are kept.
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let oversize = false;
  // `valid`: the line's bytes are known to be valid UTF-8.
  const line = (bytes: Uint8Array, length: number, terminated: boolean, valid = false): Line => {
    number += 1;
    const at = offset;
    offset += length + (terminated ? 1 : 0);
    if (length > maxLineBytes) return oversizeLine(bytes, number, at, length, terminated);
    return decode(bytes, { number, offset: at, terminated, valid }, shrinkAbove, keep, unread);
  };

  for await (const chunk of chunks) {
    let batch: Line[] = [];
    let batchBytes = 0;
    let start = 0;
    // Where the chunk's lines that end in it are valid UTF-8 (one check of them all: a newline byte is never part
    // of a character), a line short enough is sliced as text from the chunk, with no view and no check of its own.
    const slice = wholeLinesText(chunk);
    const quick = Math.min(shrinkAbove, maxLineBytes);
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (slice !== null && end !== -1 && pendingLength === 0 && end - start <= quick) {
        number += 1;
        const at = offset;
        offset += end - start + 1;
        const bodyEnd = end > start && chunk[end - 1] === RETURN ? end - 1 : end;
        const text = slice(start, bodyEnd);
        batch.push({
          number,
          offset: at,
          length: bodyEnd - start,
          text,
          invalidUtf8: false,
          terminated: true,
        });
        batchBytes += end - start;
        start = end + 1;
        if (batchBytes >= BATCH_BYTES) {
          yield batch;
          batch = [];
          batchBytes = 0;
        }
        continue;
      }
      if (end === -1) {
        // A copy (Buffer#slice would be a view): the source may reuse its buffer for the next chunk.
        if (!oversize) pending.push(new Uint8Array(chunk.subarray(start)));
        pendingLength += chunk.length - start;
        if (!oversize && pendingLength > maxLineBytes) {
          pending = [concat(pending, pendingLength).subarray(0, OVERSIZE_PREFIX)];
          oversize = true;
        }
        break;
      }
      let bytes = chunk.subarray(start, end);
      let length = bytes.length;
      const inChunk = pendingLength === 0;
      if (pendingLength > 0) {
        length += pendingLength;
        if (!oversize) pending.push(bytes);
        bytes = oversize ? pending[0]! : concat(pending, length);
        pending = [];
        pendingLength = 0;
        oversize = false;
      }
      batch.push(line(bytes, length, true, inChunk && slice !== null));
      start = end + 1;
      batchBytes += length;
      if (batchBytes >= BATCH_BYTES) {
        yield batch;
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) yield batch;
  }
  if (pendingLength > 0) {
    yield [line(oversize ? pending[0]! : concat(pending, pendingLength), pendingLength, false)];
  }
}

/** A line too long to decode: its size, and its first bytes as text. */
function oversizeLine(
  bytes: Uint8Array,
  number: number,
  offset: number,
  length: number,
  terminated: boolean,
): Line {
  const text = lenient.decode(bytes.subarray(0, OVERSIZE_PREFIX));
  return { number, offset, length, text, invalidUtf8: false, terminated, oversize: true };
}

/** Node's `Buffer#utf8Slice`: the text of a range of a buffer's bytes (invalid bytes replaced). */
type Utf8Slice = (this: Uint8Array, start: number, end: number) => string;

/**
 * A function giving the text of a range of the chunk's bytes, when the chunk's bytes up to its last newline are
 * valid UTF-8 and the runtime can slice them without a decoder (Node's buffers); else null.
 */
function wholeLinesText(chunk: Uint8Array): ((start: number, end: number) => string) | null {
  const utf8Slice = (chunk as { utf8Slice?: Utf8Slice }).utf8Slice;
  if (typeof utf8Slice !== 'function' || isUtf8 === null) return null;
  const last = chunk.lastIndexOf(NEWLINE);
  if (last === -1 || !isUtf8(chunk.subarray(0, last))) return null;
  return (start, end) => utf8Slice.call(chunk, start, end);
}

function validUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Decodes a line's full bytes (for a line read shrunk). */
export function decodeFull(bytes: Uint8Array): string {
  return lenient.decode(bytes);
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Where a line is, and whether its bytes are known to be valid UTF-8. */
interface LinePlace {
  number: number;
  offset: number;
  terminated: boolean;
  valid: boolean;
}

function decode(
  bytes: Uint8Array,
  { number, offset, terminated, valid: known }: LinePlace,
  shrinkAbove: number,
  keep: number,
  unread: Unread | undefined,
): Line {
  const rawLength = bytes.length;
  const body = rawLength > 0 && bytes[rawLength - 1] === RETURN ? bytes.subarray(0, rawLength - 1) : bytes;
  if (body.length > shrinkAbove) {
    const shrunk = shrinkLine(body, keep, unread);
    if (shrunk) {
      const valid = known || (isUtf8 ? isUtf8(body) : validUtf8(body));
      return {
        number,
        offset,
        length: body.length,
        text: lenient.decode(shrunk),
        invalidUtf8: !valid,
        terminated,
        full: body,
      };
    }
  }
  let text: string;
  let invalidUtf8 = false;
  try {
    text = strict.decode(body);
  } catch {
    text = lenient.decode(body);
    invalidUtf8 = true;
  }
  return { number, offset, length: body.length, text, invalidUtf8, terminated };
}
