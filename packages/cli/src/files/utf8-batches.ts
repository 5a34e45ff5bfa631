/**
 * The UTF-8 bytes of a text that comes in pieces, encoded into one buffer per thread, reused from text to text: no
 * joined string, and no new buffer per text or per batch.
 */

/** The size a batch buffer starts at. */
const BATCH = 1 << 20;

/** A buffer grown up to this size is kept for the next text of the thread (a larger one is dropped). */
const KEPT = 4 << 20;

/** The buffer of the thread, when no text is being encoded into it. */
let spare: Buffer | null = null;

/** Bytes of a text: valid only until the next batch is asked for (the buffer is reused). */
export interface Batch {
  bytes: Buffer;
  /** True for the text's last batch: when the first batch is the last, it holds the whole text. */
  last: boolean;
}

/**
 * Yields the UTF-8 bytes of a text in batches. The buffer grows (by doubling) while the text fits in `gather`
 * bytes, so a text of up to that many bytes comes whole in one batch; beyond, batches fill the buffer (a piece
 * larger than it comes alone).
 *
 * @param pieces The text, in pieces (even asynchronously).
 * @param gather Up to how many bytes the buffer grows to take the text whole (0: it is not grown).
 */
export async function* utf8Batches(
  pieces: Iterable<string> | AsyncIterable<string>,
  gather: number,
): AsyncGenerator<Batch> {
  let buffer = spare ?? Buffer.allocUnsafe(BATCH);
  spare = null;
  let used = 0;
  try {
    for await (const piece of pieces) {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      const most = piece.length * 3;
      if (most > buffer.length - used) {
        if (used + most <= gather) buffer = grown(buffer, used, used + most, gather);
        else {
          if (used > 0) yield { bytes: buffer.subarray(0, used), last: false };
          used = 0;
          if (most > buffer.length) {
            if (most > gather) {
              yield { bytes: Buffer.from(piece, 'utf8'), last: false };
              continue;
            }
            buffer = grown(buffer, 0, most, gather);
          }
        }
      }
      used += buffer.write(piece, used, 'utf8');
    }
    yield { bytes: buffer.subarray(0, used), last: true };
  } finally {
    if (buffer.length <= KEPT) spare = buffer;
  }
}

/**
 * A larger buffer holding the first `used` bytes of `buffer`: its size doubled until `needed` fits, `most` at most
 * (`needed` is not more).
 */
function grown(buffer: Buffer, used: number, needed: number, most: number): Buffer {
  let size = buffer.length;
  while (size < needed) size *= 2;
  const larger = Buffer.allocUnsafe(Math.min(size, most));
  buffer.copy(larger, 0, 0, used);
  return larger;
}
