/**
 * For structure-only builds: cuts the long string values of a JSON line at the byte level, so that neither the
 * UTF-8 decoder nor JSON.parse has to walk megabytes of tool output that will not be kept. A string is cut
 * after a number of UTF-16 code units (what `String#length` counts), at a character boundary and never inside
 * an escape sequence, so `text.slice(0, n)` of a cut string equals that of the whole string for any `n` below
 * the number kept; the structure of the line is untouched.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

/**
 * Returns the line with every string value (not key) longer than `keep` UTF-16 code units cut after `keep` units (or
 * `keep + 1`, not to split a 4-byte character), or null when nothing was cut or the line is not well-formed
 * enough to cut safely.
 *
 * @param bytes The line's UTF-8 bytes.
 * @param keep Code units kept of each string value.
 */
export function shrinkLine(bytes: Uint8Array, keep: number): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let copied = 0;
  let at = 0;
  for (;;) {
    const open = bytes.indexOf(QUOTE, at);
    if (open === -1) break;
    let close = open + 1;
    for (;;) {
      close = bytes.indexOf(QUOTE, close);
      if (close === -1) return null;
      let backslashes = 0;
      for (let k = close - 1; k > open && bytes[k] === BACKSLASH; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      close += 1;
    }
    // A string of at most `keep` bytes has at most `keep` code units. Keys are never cut.
    if (close - open - 1 > keep && !isKey(bytes, close + 1)) {
      const cut = unitsEnd(bytes, open + 1, close, keep);
      if (cut < close) {
        parts.push(bytes.subarray(copied, cut));
        copied = close; // the closing quote is copied with what follows
      }
    }
    at = close + 1;
  }
  if (parts.length === 0) return null;
  parts.push(bytes.subarray(copied));
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const COLON = 0x3a;

/** Whether the string that ends before `at` is an object key: a colon follows it (after any whitespace). */
function isKey(bytes: Uint8Array, at: number): boolean {
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)
  )
    at++;
  return bytes[at] === COLON;
}

/**
 * The byte offset after the first `units` UTF-16 code units of the JSON string body `bytes[start, end)`, or
 * `end` when it has fewer. Steps over whole escape sequences and whole UTF-8 sequences, so the offset is
 * always a safe place to cut.
 */
function unitsEnd(bytes: Uint8Array, start: number, end: number, units: number): number {
  let at = start;
  let counted = 0;
  while (at < end && counted < units) {
    const byte = bytes[at]!;
    if (byte === BACKSLASH) {
      at += bytes[at + 1] === LOWER_U ? 6 : 2;
      counted += 1;
    } else if (byte < 0x80) {
      at += 1;
      counted += 1;
    } else if (byte >= 0xf0) {
      at += 4;
      counted += 2;
    } else if (byte >= 0xe0) {
      at += 3;
      counted += 1;
    } else if (byte >= 0xc0) {
      at += 2;
      counted += 1;
    } else {
      // A stray continuation byte (invalid UTF-8, reported elsewhere): one replacement character.
      at += 1;
      counted += 1;
    }
  }
  return Math.min(at, end);
}
