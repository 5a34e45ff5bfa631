import { scriptJson } from './search.js';

/**
 * The text of a session's search piece (`searchPiece` writes it, the build's merge reads it: `build/search-files.ts`),
 * lines of which each entry's anchor and label are already written as the files of entries hold them, so that
 * merging the pieces of an archive neither parses nor writes again the entries' text (most of a piece):
 *
 * - first line: `{"s": link of the session's first page, "r": [links of the pages its entries are on]}`;
 * - one line per entry (document `n` is the `n`-th): `page,"anchor","label"`, the number of its page in `r`
 *   and the entry's anchor and label as JSON strings (`scriptJson`) escaped for a single-quoted literal (`inQuotes`);
 * - last line: `[[term, postings], …]`, postings written by `encodePostings` (documents of this session).
 *
 * No line break is left unescaped in JSON text, so lines are the piece's structure.
 */

/** A piece as the merge reads it: each entry's anchor and label as the files of entries hold them. */
export interface ReadPiece {
  /** The link of the session's first page. */
  s: string;
  /** The links of the pages its entries are on. */
  r: string[];
  /** Each entry: the number of its page in `r`, and `"anchor","label"` escaped (`pieceText`). */
  d: [number, string][];
  /** Each term and its postings. */
  t: [string, string][];
}

/** Text escaped for a single-quoted string literal of a script: backslashes and single quotes. */
export function inQuotes(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

/**
 * The text of a piece (safe inside a script: no `<`, no line separator).
 * @param s The link of the session's first page.
 * @param r The links of the pages its entries are on.
 * @param d Each entry: the number of its page in `r`, its anchor, its label.
 * @param t Each term (letters and digits) and its postings.
 */
export function pieceText(
  s: string,
  r: readonly string[],
  d: readonly (readonly [number, string, string])[],
  t: readonly (readonly [string, string])[],
): string {
  let lines = '';
  for (const [page, anchor, label] of d) lines += entryLine(page, anchor, label);
  return pieceTextWith(s, r, lines, termsJson(t));
}

/** `pieceText`, its entries and terms written already: `lines`, each entry's `entryLine`, and `terms`. */
function pieceTextWith(s: string, r: readonly string[], lines: string, terms: string): string {
  return `${pieceHead(s, r)}${lines}${terms}`;
}

/**
 * The UTF-8 bytes of `pieceText`, its entries and terms written already: `body`, each entry's `entryLine` then the
 * terms' line (`TermTable.writeTerms`), as bytes.
 */
export function pieceBytes(s: string, r: readonly string[], body: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(pieceHead(s, r));
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

/** The piece's first line, its line break included. */
function pieceHead(s: string, r: readonly string[]): string {
  return `{"s":${scriptJson(s)},"r":${scriptJson(r)}}\n`;
}

/**
 * An entry's line of a piece: `page,"anchor","label"` and a line break (see the module's comment).
 * @param plain The label is known to hold nothing that JSON or a script escapes (`isPlain`).
 */
export function entryLine(page: number, anchor: string, label: string, plain = false): string {
  return `${page},${entryText(anchor, label, plain)}\n`;
}

/** Whether a text holds nothing that `JSON.stringify`, `scriptJson` or `inQuotes` change. */
export function isPlain(text: string): boolean {
  return !CHANGED.test(text);
}

/**
 * `scriptJson(t)`, written pair by pair: a term (letters and digits, lower case) and postings (`encodePostings`'
 * digits) have nothing that JSON or a script escapes, so the postings, most of the text, are not read again.
 */
function termsJson(t: readonly (readonly [string, string])[]): string {
  let out = '[';
  for (let i = 0; i < t.length; i++) {
    const [term, code] = t[i] as readonly [string, string];
    out += `${i === 0 ? '' : ','}[${scriptJson(term)},"${code}"]`;
  }
  return `${out}]`;
}

/** `inQuotes(scriptJson([anchor, label]).slice(1, -1))`, in one replace (none when nothing is escaped). */
function entryText(anchor: string, label: string, plain: boolean): string {
  // Most have nothing that either escapes: written as they are.
  if ((plain || !CHANGED.test(label)) && !CHANGED.test(anchor)) return `"${anchor}","${label}"`;
  const json = `${JSON.stringify(anchor)},${JSON.stringify(label)}`;
  return ESCAPED.test(json) ? json.replace(ESCAPED_ALL, (c) => IN_SCRIPT[c] as string) : json;
}

/** What `JSON.stringify` (quotes, backslashes, control characters, surrogates), `scriptJson` or `inQuotes` change. */
const CHANGED = /["\\\u0000-\u001f\ud800-\udfff<>'\u2028\u2029]/;
/** What `scriptJson` or `inQuotes` would change, and what they write for it (`inQuotes` of `scriptJson`'s). */
const ESCAPED = /[<>\u2028\u2029\\']/;
const ESCAPED_ALL = /[<>\u2028\u2029\\']/g;
const IN_SCRIPT: Record<string, string> = {
  '<': '\\\\u003c',
  '>': '\\\\u003e',
  '\u2028': '\\\\u2028',
  '\u2029': '\\\\u2029',
  '\\': '\\\\',
  "'": "\\'",
};

/** Reads the text of `pieceText`. */
export function readPiece(text: string): ReadPiece {
  return {
    ...readPieceEntries(text),
    t: JSON.parse(text.slice(text.lastIndexOf('\n') + 1)) as [string, string][],
  };
}

/** Reads the text of `pieceText` but its terms. */
export function readPieceEntries(text: string): Omit<ReadPiece, 't'> {
  const first = text.indexOf('\n');
  const last = text.lastIndexOf('\n');
  const head = JSON.parse(text.slice(0, first)) as { s: string; r: string[] };
  const d: [number, string][] = [];
  for (let at = first + 1; at < last; ) {
    const end = text.indexOf('\n', at);
    const comma = text.indexOf(',', at);
    d.push([Number(text.slice(at, comma)), text.slice(comma + 1, end)]);
    at = end + 1;
  }
  return { s: head.s, r: head.r, d };
}
