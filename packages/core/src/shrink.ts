/**
 * For structure-only builds: cuts the long string values of a JSON line at the byte level, so that neither the
 * UTF-8 decoder nor JSON.parse has to walk megabytes of tool output that will not be kept. Strings are cut at a
 * character boundary and never inside an escape sequence; the structure of the line is untouched.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Returns the line with every string value longer than `keep` bytes cut to about `keep` bytes, or null when
 * nothing was cut or the line is not well-formed enough to cut safely.
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
    if (close - open - 1 > keep) {
      const cut = safeCut(bytes, open + 1, open + 1 + keep);
      parts.push(bytes.subarray(copied, cut));
      copied = close; // the closing quote is copied with what follows
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

/** Moves a cut back to a UTF-8 character boundary outside any escape sequence. */
function safeCut(bytes: Uint8Array, start: number, cut: number): number {
  // Not inside a multi-byte character: continuation bytes are 10xxxxxx.
  while (cut > start && (bytes[cut]! & 0xc0) === 0x80) cut--;
  // Not inside an escape: look at the last backslash run within the 6 bytes before the cut.
  for (let p = cut - 1; p >= Math.max(start, cut - 6); p--) {
    if (bytes[p] !== BACKSLASH) continue;
    let run = 0;
    for (let k = p; k >= start && bytes[k] === BACKSLASH; k--) run++;
    const escapeStart = p; // the last backslash of the run
    if (run % 2 === 1) {
      const length = bytes[escapeStart + 1] === 0x75 ? 6 : 2; // \uXXXX or \n
      if (escapeStart + length > cut) cut = escapeStart;
    }
    break;
  }
  return cut;
}
