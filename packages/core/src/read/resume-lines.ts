/**
 * Reading a transcript on from where an earlier read stopped. Claude Code appends to a session's file while it
 * runs; a reader that follows it (`cctrail serve`) reads only the bytes after the last whole line it has read.
 * The lines are those a read of the whole file gives (same numbers, offsets and text); a last line without its
 * newline is not consumed, since its writer has not finished it: the next read starts at it again. A file that
 * shrank, or whose first bytes or the newline before the resume point changed, was rewritten, and is read again
 * from the start (`checkResume` says which).
 */

import { type Line, type ReadOptions, readLineBatches } from './read-lines.js';

/** Where a read stopped: what the next read of the same file starts from. */
export interface ResumePoint {
  /** Bytes consumed: the offset of the first line not read yet (0 before any read). */
  offset: number;
  /** Whole lines read. */
  lines: number;
  /** The file's first bytes (at most 256, never past `offset`), to recognise a file written anew. */
  head: Uint8Array;
}

/** The point before any read. */
export const FILE_START: ResumePoint = Object.freeze({ offset: 0, lines: 0, head: new Uint8Array(0) });

/** Bytes of a file's head kept in a resume point. */
const HEAD_BYTES = 256;
const NEWLINE = 0x0a;

/** A file as `checkResume` looks at it: its size now, and its bytes at an offset (the caller's I/O). */
export interface FileNow {
  size: number;
  bytes(offset: number, length: number): Uint8Array;
}

/** Whether a read may go on from a point, or must start again and why. */
export type ResumeCheck =
  | { kind: 'resume'; from: ResumePoint }
  | { kind: 'restart'; reason: 'shrank' | 'rewritten'; from: ResumePoint };

/**
 * Checks that a file still holds what was read up to a point: it is no shorter, its head is the same and the
 * byte before the point is still a newline. Else it was truncated or written anew and is read from the start.
 *
 * @param point Where the last read stopped.
 * @param file The file now.
 */
export function checkResume(point: ResumePoint, file: FileNow): ResumeCheck {
  if (point.offset === 0) return { kind: 'resume', from: point };
  if (file.size < point.offset) return { kind: 'restart', reason: 'shrank', from: FILE_START };
  const head = file.bytes(0, point.head.length);
  const sameHead = head.length === point.head.length && head.every((b, i) => b === point.head[i]);
  if (!sameHead || file.bytes(point.offset - 1, 1)[0] !== NEWLINE)
    return { kind: 'restart', reason: 'rewritten', from: FILE_START };
  return { kind: 'resume', from: point };
}

/**
 * Reads the whole lines after a resume point.
 *
 * @param chunks The file's bytes from `point.offset` to its current end.
 * @param point Where the last read stopped (`FILE_START` for a first read).
 * @param onLines Called with each batch of whole lines, numbered and placed as in the whole file. A line's
 *   `full` bytes may refer to the chunk: use them before the call returns.
 * @param options As for `readLines` (shrinking, the longest line decoded).
 * @returns The point to resume from next time.
 */
export async function readOn(
  chunks: AsyncIterable<Uint8Array>,
  point: ResumePoint,
  onLines: (lines: Line[]) => void,
  options: ReadOptions = {},
): Promise<ResumePoint> {
  let total = 0;
  let head = point.head;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      // The head grows only while it is shorter than HEAD_BYTES, which is while the point is inside it.
      if (head.length < HEAD_BYTES && point.offset + total === head.length) {
        const more = chunk.subarray(0, HEAD_BYTES - head.length);
        const grown = new Uint8Array(head.length + more.length);
        grown.set(head);
        grown.set(more, head.length);
        head = grown;
      }
      total += chunk.length;
      yield chunk;
    }
  }
  let consumed = -1;
  let lines = 0;
  for await (const batch of readLineBatches(counted(), options)) {
    const whole: Line[] = [];
    for (const line of batch) {
      if (!line.terminated) {
        consumed = line.offset;
        continue;
      }
      whole.push({ ...line, number: line.number + point.lines, offset: line.offset + point.offset });
    }
    lines += whole.length;
    if (whole.length > 0) onLines(whole);
  }
  const offset = point.offset + (consumed >= 0 ? consumed : total);
  return { offset, lines: point.lines + lines, head: head.subarray(0, Math.min(head.length, offset)) };
}

/**
 * The point after the last whole line of a file's bytes, found without decoding them: what a follower that
 * starts watching a file already read (by someone else, e.g. a report build) resumes from. The bytes after the
 * last newline are an unfinished line and are left for the next read.
 *
 * @param chunks The file's bytes from its start (to where it was read).
 * @returns The point whose next read starts at the first byte after the last newline.
 */
export async function pointAfterLines(chunks: AsyncIterable<Uint8Array>): Promise<ResumePoint> {
  let total = 0;
  let lines = 0;
  let lastNewline = -1;
  let head = new Uint8Array(0);
  for await (const chunk of chunks) {
    if (head.length < HEAD_BYTES) {
      const more = chunk.subarray(0, HEAD_BYTES - head.length);
      const grown = new Uint8Array(head.length + more.length);
      grown.set(head);
      grown.set(more, head.length);
      head = grown;
    }
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, at + 1)) {
      lines++;
      lastNewline = total + at;
    }
    total += chunk.length;
  }
  const offset = lastNewline + 1;
  return { offset, lines, head: head.subarray(0, Math.min(head.length, offset)) };
}
