/**
 * For structure-only builds: cuts the long string values of a JSON line at the byte level, so that neither the
 * UTF-8 decoder nor JSON.parse has to walk megabytes of tool output that will not be kept. A string is cut
 * after a number of UTF-16 code units (what `String#length` counts), at a character boundary and never inside
 * an escape sequence, so `text.slice(0, n)` of a cut string equals that of the whole string for any `n` below
 * the number kept; the structure of the line is untouched. Strings the reader never uses (`Unread`) are
 * emptied instead. The bytes taken away are checked (`string-spans.ts`), so a shrunk line parses exactly when the
 * whole line would.
 */

import { stringSpans } from './string-spans.js';

const BACKSLASH = 0x5c;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * The parts of a line a reader never uses, as a tree over its JSON: `keys` gives the rule of the value under
 * each listed key, `others` that of any other key, `items` that of each array item. `true` marks a value none of
 * whose strings is read: its strings are emptied. A value without a rule is kept (its long strings cut to
 * `keep` code units). The root rule applies to each top-level object of the line.
 */
export interface Unread {
  keys?: Readonly<Record<string, Unread | boolean>>;
  others?: boolean;
  items?: Unread | boolean;
}

type Rule = Unread | boolean | undefined;

/** Emptied strings shorter than this many bytes are left alone: cutting them costs more than parsing them. */
const EMPTY_ABOVE = 48;

/**
 * Returns the line with every string value (not key) longer than `keep` UTF-16 code units cut after `keep` units (or
 * `keep + 1`, not to split a 4-byte character), and with the string values that `unread` marks emptied, or null
 * when nothing was cut or the line is not well-formed enough to cut safely. Every string is checked as
 * `JSON.parse` checks it (control characters, escapes): a string that is not valid JSON gives null, so that the
 * line is parsed whole and found invalid, as it is.
 *
 * @param bytes The line's UTF-8 bytes.
 * @param keep Code units kept of each string value.
 * @param unread What the reader of the line does not use (default: it uses everything).
 */
export function shrinkLine(bytes: Uint8Array, keep: number, unread?: Unread): Uint8Array | null {
  const strings = stringSpans(bytes);
  const parts: Uint8Array[] = [];
  let copied = 0;
  let at = 0;
  // With rules, the containers the scan is in (between strings, braces and brackets are structure): the rule
  // of each, whether it is an array, and in an object the rule of the value after the current key.
  const rules: Rule[] = [];
  const arrays: boolean[] = [];
  let depth = 0;
  let valueRule: Rule;
  for (;;) {
    // Every string is checked as it is found: the bytes cut or emptied are not parsed.
    const more = strings.next();
    if (!strings.valid) return null;
    const open = more ? strings.open : -1;
    if (unread !== undefined) {
      const gapEnd = open === -1 ? bytes.length : open;
      for (let i = at; i < gapEnd; i++) {
        const byte = bytes[i];
        if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          rules[depth] = depth === 0 ? unread : arrays[depth - 1] ? itemRule(rules[depth - 1]) : valueRule;
          arrays[depth] = byte === OPEN_BRACKET;
          depth++;
          valueRule = undefined;
        } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          if (depth > 0) depth--;
          valueRule = undefined;
        }
      }
    }
    if (open === -1) break;
    const close = strings.close;
    const length = close - open - 1;
    if (isKey(bytes, close + 1)) {
      // Keys are never cut; with rules, the key names the rule of its value.
      if (unread !== undefined && depth > 0 && !arrays[depth - 1])
        valueRule = keyRule(rules[depth - 1], bytes, open + 1, close);
    } else {
      const rule =
        unread === undefined || depth === 0
          ? undefined
          : arrays[depth - 1]
            ? itemRule(rules[depth - 1])
            : valueRule;
      if (rule === true && length > EMPTY_ABOVE) {
        parts.push(bytes.subarray(copied, open + 1));
        copied = close; // the closing quote is copied with what follows
      } else if (length > keep) {
        // A string of at most `keep` bytes has at most `keep` code units.
        const cut = unitsEnd(bytes, open + 1, close, keep);
        if (cut < close) {
          parts.push(bytes.subarray(copied, cut));
          copied = close;
        }
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

/** The rule of an array's items. */
function itemRule(rule: Rule): Rule {
  return rule === true ? true : rule ? rule.items : undefined;
}

/** The rule of the value under the key `bytes[start, end)` of an object with rule `rule`. */
function keyRule(rule: Rule, bytes: Uint8Array, start: number, end: number): Rule {
  if (rule === true) return true;
  if (!rule) return undefined;
  if (rule.keys) {
    for (const name in rule.keys) if (sameKey(bytes, start, end, name)) return rule.keys[name];
  }
  return rule.others;
}

/** Whether the raw key bytes spell `name` (an ASCII name; an escaped key never matches). */
function sameKey(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name.charCodeAt(i)) return false;
  return true;
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
