import { pageHref } from '../html/links.js';
import type { ContentBlock, Entry, Session } from '../model.js';
import type { EntryPlace } from '../transcript/entry-locator.js';
import { actorLabel } from '../transcript/transcript.js';
import { WEIGHTS } from './search-codec.js';
import { entryLine, isPlain, pieceBytes } from './search-piece.js';
import { previewOf, previewWasPlain } from './search-preview.js';
import { TermTable } from './search-terms.js';
import { ByteText } from './terms-line.js';

/**
 * Full-text search inside transcripts: each session becomes one piece of the archive's index (its entries and,
 * for each term, the entries that have it), computed while the session is loaded (the session is the
 * archive's redacted copy: what the pages show, nothing else). The build merges the pieces into files by
 * term and files of entries (`build/search-pieces.ts`), of which a query loads only those it needs.
 */

/** Most characters of a tool call's input indexed. */
const INPUT_CAP = 1_000;
/** Most characters of a tool result indexed (outputs are most of an archive's text, and mostly code). */
const OUTPUT_CAP = 2_000;
/** Longer terms (hashes, base64, minified code) are not indexed. */
const LONGEST_TERM = 40;

/** The text of an entry that search finds, capped per block (tool outputs are long, and mostly code). */
export function entrySearchText(entry: Entry): string {
  if (entry.kind === 'progress') return '';
  // Most entries are one block.
  if (entry.content.length === 1) return blockText(entry.content[0] as ContentBlock);
  const parts: string[] = [];
  for (const block of entry.content) parts.push(blockText(block));
  return parts.filter((p) => p !== '').join('\n');
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return `${block.name} ${inputText(block.input)}`.slice(0, INPUT_CAP);
    case 'tool_result':
      return joinCapped(
        block.content.map((item) => (item.type === 'text' ? item.text : '')),
        '\n',
        OUTPUT_CAP,
      );
    default:
      return '';
  }
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return '';
  const out: string[] = [];
  for (const v of Object.values(input)) {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v))
      for (const item of v) {
        if (typeof item === 'object' && item !== null)
          for (const w of Object.values(item)) if (typeof w === 'string') out.push(w);
      }
  }
  return joinCapped(out, ' ', INPUT_CAP);
}

/** `parts.join(separator).slice(0, cap)`, without joining more than `cap` characters of long parts. */
function joinCapped(parts: readonly string[], separator: string, cap: number): string {
  let out = '';
  for (let i = 0; i < parts.length && out.length < cap; i++) {
    if (i > 0) out += separator;
    const part = parts[i] as string;
    out += part.length > cap - out.length ? part.slice(0, Math.max(0, cap - out.length)) : part;
  }
  return out.length > cap ? out.slice(0, cap) : out;
}

/**
 * A word: a run of letters and digits. The index's terms are the words of the text, lower case; the search page
 * splits queries and finds the words of a result's text with the same pattern.
 */
export const WORD = /[\p{L}\p{N}]+/gu;

/** The shortest query term that also finds every longer term it starts (a prefix). */
const PREFIX_LENGTH = 3;

/** Whether a query term finds the longer terms it starts, not only itself. */
export function isPrefixTerm(term: string): boolean {
  return term.length >= PREFIX_LENGTH;
}

/**
 * Whether a query term finds a word: the word is the term or, for a prefix term (`isPrefixTerm`), starts with it.
 * @param term The query's term (`queryTerms`: lower case).
 * @param word The word, lower case.
 */
export function termFinds(term: string, word: string): boolean {
  return word === term || (isPrefixTerm(term) && word.startsWith(term));
}

/**
 * Words (`WORD`), and whether they are in lower case already. The search page splits queries the same way, and
 * lowers each word on its own.
 */
function words(text: string): { words: string[]; lower: boolean } {
  // Text of ASCII only (most of it) has no other letters or digits, and its case maps one character to one:
  // lowered at once, then split without Unicode's tables.
  if (NOT_ASCII.test(text)) return { words: text.match(WORD) ?? [], lower: false };
  return { words: text.toLowerCase().split(/[^a-z0-9]+/), lower: true };
}

const NOT_ASCII = /[^\u0000-\u007f]/;
const NOT_SPACE = /\S/;

/** A term as indexed: lower case, or dropped (empty, or too long to be typed). */
function indexTerm(term: string): string | null {
  return term === '' || term.length > LONGEST_TERM ? null : term.toLowerCase();
}

/**
 * The terms of a query, as the index has them (the same split into words, each lower case, none empty or too
 * long to have been indexed): what the search page looks up (compiled into `_cctrail/search-match.js`).
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text).words) {
    const term = indexTerm(word);
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** Okapi BM25's saturation and length normalisation, folded into each posting's weight at build time. */
const K1 = 1.2;
const B = 0.7;
/** Words of an ordinary entry (the length against which longer entries weigh their terms less). */
const USUAL_LENGTH = 60;

/** A term's weight in a document (1 … WEIGHTS): BM25's term-frequency part, quantized. */
export function termWeight(count: number, length: number): number {
  const part = (count * (K1 + 1)) / (count + K1 * (1 - B + (B * length) / USUAL_LENGTH));
  return Math.max(1, Math.min(WEIGHTS, Math.round((part / (K1 + 1)) * WEIGHTS)));
}

/**
 * The search piece of one session (`search-piece.ts`): the links of its pages, its entries (documents, each
 * with its page, anchor and label) and, for each term, its postings written by `encodePostings`. The build
 * merges the pieces of every session into the archive's index (`build/search-pieces.ts`). Null when nothing
 * in the session has text.
 *
 * @param session The session (the archive's copy, redacted by the CLI).
 * @param locate Where each entry is shown (`entryLocator`).
 * @param sessionRoute The route of the session's first page.
 * @param texts Each entry's `entrySearchText`, when they were taken already (in the walk that redacted the
 *   entries: `prepareSession`'s `entryTexts`); else the entries are read for them here.
 */
export function searchPiece(
  session: Session,
  locate: (e: Entry) => EntryPlace | null,
  sessionRoute: string,
  texts?: readonly string[],
): string | null {
  const bytes = searchPieceBytes(session, locate, sessionRoute, texts);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** `searchPiece` as the UTF-8 bytes of its text, made as bytes (what the build's cache stores). */
export function searchPieceBytes(
  session: Session,
  locate: (e: Entry) => EntryPlace | null,
  sessionRoute: string,
  texts?: readonly string[],
): Uint8Array | null {
  const routes = new Map<string, number>();
  const table = new TermTable();
  const { entries } = session;
  const given = texts !== undefined && texts.length === entries.length ? texts : null;
  // The entries' lines of the piece (`entryLine`), in order, then its terms.
  body ??= new ByteText(1 << 16);
  body.clear();
  let docs = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    const text = given === null ? entrySearchText(entry) : (given[i] as string);
    if (!NOT_SPACE.test(text)) continue;
    const place = locate(entry);
    if (!place) continue;
    let r = routes.get(place.route);
    if (r === undefined) {
      r = routes.size;
      routes.set(place.route, r);
    }
    addDocument(table, docs++, text);
    // Read from the bytes the table read it from, when it is ASCII.
    const preview = previewOf(text, table.asciiBytes);
    // Whether the preview holds nothing that JSON or a script escapes, as its scan found.
    const plain = previewWasPlain();
    const actor = actorLabel(entry);
    body.line(entryLine(r, place.anchor, `${actor}: ${preview}`, plain && isPlain(actor)));
  }
  if (docs === 0) return null;
  table.writeTerms(body);
  const links = [...routes.keys()].map((route) => pageHref('', route));
  return pieceBytes(pageHref('', sessionRoute), links, body.written());
}

/** Where a piece is written (kept from piece to piece: its bytes are copied out). */
let body: ByteText | null = null;

/** Adds the terms of document `doc` (the highest so far) to the table, each once with its weight. */
function addDocument(table: TermTable, doc: number, text: string): void {
  table.begin(doc);
  // Text of ASCII only (most of it) is read without Unicode's tables.
  if (!table.countAscii(text, LONGEST_TERM)) {
    for (const word of text.match(WORD) ?? []) {
      // Too long to be typed: not indexed.
      if (word.length <= LONGEST_TERM) table.countTerm(word.toLowerCase());
    }
  }
  table.end(termWeight);
}
