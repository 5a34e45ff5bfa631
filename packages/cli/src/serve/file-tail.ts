/**
 * One transcript file followed by `cctrail serve`: where its last read stopped (core's `ResumePoint`) and the
 * uuid of its last record, so that each change reads only the bytes appended since (core's `readOn`). The first
 * point is taken when the file is first seen, from the bytes the report's build read; a file that shrank or was
 * rewritten starts again from its new end, and says so.
 */

import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { checkResume, type Line, pointAfterLines, type ResumePoint, readOn } from '@cctrail/core';

/** What reading a file on gave. */
export type TailRead =
  | { kind: 'appended'; lines: Line[] }
  | { kind: 'restart'; reason: 'shrank' | 'rewritten' | 'gone' };

/** Bytes read back from the resume point to find the last record's uuid. */
const LAST_LINE_BYTES = 256 * 1024;

/** A followed file. */
export class FileTail {
  private point: ResumePoint;
  /** The file's size at the last read. */
  private seen: number;

  /**
   * @param path The file.
   * @param point Where reading goes on from (from `FileTail.open`).
   * @param last The uuid of the record before the point, when known.
   */
  private constructor(
    readonly path: string,
    point: ResumePoint,
    public last: string | null,
  ) {
    this.point = point;
    this.seen = point.offset;
  }

  /**
   * Starts following a file at its last whole line up to `size` bytes (what the report's build read): its
   * newlines are counted, not decoded.
   *
   * @param path The file.
   * @param size The bytes already shown (its size when the build read it); the file's size by default.
   */
  static async open(path: string, size?: number): Promise<FileTail> {
    const end = Math.min(size ?? Number.POSITIVE_INFINITY, statSync(path).size);
    const point =
      end === 0
        ? { offset: 0, lines: 0, head: new Uint8Array(0) }
        : await pointAfterLines(createReadStream(path, { start: 0, end: end - 1 }));
    return new FileTail(path, point, lastUuid(path, point.offset));
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.point.offset;
  }

  /** Whether the file's size differs from the last read's (it grew, or shrank), or the file is gone. */
  changed(): boolean {
    try {
      return statSync(this.path).size !== this.seen;
    } catch {
      return true;
    }
  }

  /**
   * Reads the whole lines appended since the last read. A file that is shorter or whose read bytes changed is
   * not read: the caller rebuilds its session, and the tail starts again at its new end.
   */
  async readNew(): Promise<TailRead> {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return { kind: 'restart', reason: 'gone' };
    }
    const check = withFile(this.path, (fd) =>
      checkResume(this.point, {
        size,
        bytes: (offset, length) => {
          const buffer = Buffer.alloc(length);
          return buffer.subarray(0, readSync(fd, buffer, 0, length, offset));
        },
      }),
    );
    this.seen = size;
    if (check.kind === 'restart') {
      const fresh = await FileTail.open(this.path, size);
      this.point = fresh.point;
      this.last = fresh.last;
      return { kind: 'restart', reason: check.reason };
    }
    if (size === this.point.offset) return { kind: 'appended', lines: [] };
    const lines: Line[] = [];
    const stream = createReadStream(this.path, { start: this.point.offset, end: size - 1 });
    this.point = await readOn(stream, this.point, (batch) => lines.push(...batch));
    return { kind: 'appended', lines };
  }
}

function withFile<T>(path: string, use: (fd: number) => T): T {
  const fd = openSync(path, 'r');
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** The uuid of the last whole line before `offset`, when that line is a record with one and not too long. */
function lastUuid(path: string, offset: number): string | null {
  if (offset === 0) return null;
  const start = Math.max(0, offset - LAST_LINE_BYTES);
  const bytes = withFile(path, (fd) => {
    const buffer = Buffer.alloc(offset - start);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, start));
  });
  // The bytes end with the line's newline; the line starts after the newline before it.
  const before = bytes.lastIndexOf(0x0a, bytes.length - 2);
  if (before < 0 && start > 0) return null;
  try {
    const record = JSON.parse(bytes.subarray(before + 1).toString('utf8')) as { uuid?: unknown };
    return typeof record.uuid === 'string' ? record.uuid : null;
  } catch {
    return null;
  }
}
