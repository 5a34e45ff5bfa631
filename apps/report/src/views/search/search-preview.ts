/**
 * An entry's preview in the search index: the start of its text as the search page shows it under a result, and
 * whether it holds anything that JSON or a script escapes (`previewWasPlain`), found by the same scan, so that the
 * piece's line is written without another look at it (`search-piece.ts`).
 */

/** Characters of an entry's text kept to show under a result (the page shows those around the word found). */
const PREVIEW = 240;

/**
 * The first `PREVIEW` characters of a text with each run of whitespace (`\s`) made one space, none at either
 * end: `text.slice(0, PREVIEW * 4).replace(/\s+/g, ' ').trim().slice(0, PREVIEW)`, read only as far as needed.
 * @param bytes The text's characters as bytes from 0, when it is ASCII (read faster than the string's).
 */
export function previewOf(text: string, bytes: Uint8Array | null = null): string {
  return bytes === null ? previewOfText(text) : previewOfAscii(text, bytes);
}

/**
 * Whether the last preview (`previewOf`) holds none of the characters that JSON or a script escapes (`isPlain`):
 * its scan reads every character the preview is made of (and, past its end, may read a few more, which only makes
 * this false more often). Whitespace is never among them: the preview has each run of it as one space.
 */
export function previewWasPlain(): boolean {
  return previewPlain;
}

let previewPlain = true;

/** `previewOf` of any text, read by its code units. */
function previewOfText(text: string): string {
  const end = Math.min(text.length, PREVIEW * 4);
  let out = '';
  // Where the run of text being read starts (−1: in whitespace): words and the single spaces between them, kept
  // as one slice (a preview of few slices joined, not one a word), and whether whitespace came after the last.
  let from = -1;
  let gap = false;
  let plain = true;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 ? ASCII[c] === ESCAPED : c >= 0xd800 && c <= 0xdfff) plain = false;
    if (c === 0x20 && from >= 0 && i + 1 < end && !isSpace(text.charCodeAt(i + 1))) {
      if (out.length + i - from < PREVIEW) continue;
      out += text.slice(from, i);
      from = -1;
      break;
    }
    if (isSpace(c)) {
      if (from >= 0) {
        out += text.slice(from, i);
        from = -1;
        if (out.length >= PREVIEW) break;
      }
      gap = out.length > 0;
    } else if (from < 0) {
      if (gap) out += ' ';
      gap = false;
      from = i;
    }
  }
  if (from >= 0) out += text.slice(from, end);
  previewPlain = plain;
  return out.slice(0, PREVIEW);
}

/**
 * `previewOf` of a text of ASCII only, read from its bytes by runs: the characters of a run (a word and the single
 * spaces inside it) are skipped by one look-up each, and each run is one slice of the text.
 */
function previewOfAscii(text: string, bytes: Uint8Array): string {
  const end = Math.min(text.length, PREVIEW * 4);
  let out = '';
  let plain = true;
  let i = 0;
  while (i < end && (ASCII[bytes[i] as number] as number) >= SPACE) i++;
  while (i < end) {
    const from = i;
    for (;;) {
      while (i < end && ASCII[bytes[i] as number] === SHOWN) i++;
      if (i >= end) break;
      const kind = ASCII[bytes[i] as number] as number;
      if (kind === ESCAPED) {
        plain = false;
        i++;
        continue;
      }
      // A single space between two shown characters stays in the run, unless the run is long enough already.
      if (kind === SPACE && i + 1 < end && (ASCII[bytes[i + 1] as number] as number) < SPACE) {
        if (out.length + i - from >= PREVIEW) break;
        i++;
        continue;
      }
      break;
    }
    out = out.length === 0 ? text.slice(from, i) : `${out} ${text.slice(from, i)}`;
    if (out.length >= PREVIEW) break;
    while (i < end && (ASCII[bytes[i] as number] as number) >= SPACE) i++;
  }
  previewPlain = plain;
  return out.length > PREVIEW ? out.slice(0, PREVIEW) : out;
}

/** What a preview does with an ASCII character: shows it, escapes it (JSON, a script), or reads it as whitespace. */
const SHOWN = 0;
const ESCAPED = 1;
const SPACE = 2;
const OTHER_SPACE = 3;
const ASCII = /* @__PURE__ */ asciiKinds();

function asciiKinds(): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 0; c < 0x20; c++) table[c] = isSpace(c) ? OTHER_SPACE : ESCAPED;
  table[0x20] = SPACE;
  for (const c of '"\\<>\'') table[c.charCodeAt(0)] = ESCAPED;
  return table;
}

/** Whether a code unit is whitespace as `\s` and `trim` read it. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
