/**
 * Secret redaction for published reports: every string of a value is scanned for credentials, which are
 * replaced by `[REDACTED:<kind>]`. Patterns are data; each is specific enough not to eat ordinary text
 * (ids like `toolu_…`/`msg_…` and uuids never match).
 */

import { type PresetFinding, presetSecrets } from './preset-secrets.js';
import { SECRET_PATTERNS } from './redact-patterns.js';
import { rewriteStrings } from './rewrite-strings.js';

import type { SecretHint, SecretPattern } from './secret-pattern.js';

export { SECRET_PATTERNS };

/**
 * Every hint as one expression. Most strings hold none, and for a short string one search says so faster than
 * one `indexOf` per hint; past `SHORT_TEXT` characters the `indexOf`s are faster, since an expression of many
 * alternatives looks at nearly every character.
 */
const ANY_HINT = new RegExp(
  [
    ...new Set(
      SECRET_PATTERNS.flatMap(({ hints }) =>
        hints.map((hint) =>
          typeof hint === 'string' ? hint.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : `(?:${hint.at.source})`,
        ),
      ),
    ),
  ].join('|'),
);
// Below this length one expression over the whole text is faster than searching hint by hint.
const SHORT_TEXT = 4000;

/** A replacement marker: what was there, never its value. */
function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Values that are already markers or placeholders are not secrets. */
function isPlaceholder(secret: string): boolean {
  return (
    /^\[REDACTED/.test(secret) ||
    /^\d+$/.test(secret) ||
    /^(?:\$\{?[A-Za-z_]|<|\*+$|x+$|your[-_]|process\.env|os\.environ|env\.)/i.test(secret)
  );
}

/**
 * Redacts the secrets in one string.
 *
 * @param found Collects the secrets replaced (their values), to count each once however often it appears.
 * @returns The new text and the number of secrets replaced.
 */
export function redactText(text: string, found?: Set<string>): { text: string; count: number } {
  if (!text.includes('\u001b')) return redactPlain(text, found);
  // Terminal colour codes can split a secret or hide its edges: the text is scanned without them, and
  // published without them when it held a secret.
  const result = redactPlain(text.replace(ANSI_ESCAPE, ''), found);
  return result.count > 0 ? result : { text, count: 0 };
}

/** Both rule sets over a text without terminal codes: cctrail's patterns, then what secretlint's preset finds. */
function redactPlain(text: string, found?: Set<string>): { text: string; count: number } {
  // The preset reads the text as written; what cctrail's patterns replaced already is not found again.
  return replaceFindings(redactShapes(text, found), presetSecrets(text), found);
}

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks).
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** cctrail's own patterns over a text without terminal codes. */
function redactShapes(text: string, found?: Set<string>): { text: string; count: number } {
  if (text.length <= SHORT_TEXT && !ANY_HINT.test(text)) return { text, count: 0 };
  const counter: Counter = { count: 0, found };
  let out = text;
  // Where each hint is in `out`, until `out` changes: patterns share hints.
  let hints = new Map<SecretHint, number[]>();
  for (const secret of SECRET_PATTERNS) {
    const hits = hintsIn(out, secret.hints, hints);
    if (hits.length === 0) continue;
    const before = counter.count;
    out =
      secret.scope === 'text'
        ? replaceIn(out, secret, counter)
        : replaceAround(out, hits, secret.scope, secret, counter);
    if (counter.count !== before) hints = new Map();
  }
  return { text: out, count: counter.count };
}

/** What a redaction has replaced so far. */
interface Counter {
  count: number;
  found: Set<string> | undefined;
}

/** Where the hints are in a text, in order. */
function hintsIn(text: string, hints: readonly SecretHint[], found: Map<SecretHint, number[]>): number[] {
  const hits: number[] = [];
  for (const hint of hints) {
    let at = found.get(hint);
    if (at === undefined) {
      at = positionsOf(hint, text);
      found.set(hint, at);
    }
    for (const i of at) hits.push(i);
  }
  return hints.length > 1 ? hits.sort((a, b) => a - b) : hits;
}

/** Where one hint is in a text. */
function positionsOf(hint: SecretHint, text: string): number[] {
  const literal = typeof hint === 'string' ? hint : hint.find;
  const at: number[] = [];
  for (let i = text.indexOf(literal); i !== -1; i = text.indexOf(literal, i + 1)) {
    if (typeof hint !== 'string') {
      hint.at.lastIndex = i;
      if (!hint.at.test(text)) continue;
    }
    at.push(i);
  }
  return at;
}

/** Replaces the matches of one pattern in a text. */
function replaceIn(text: string, { kind, pattern, valid }: SecretPattern, counter: Counter): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
    const secret = typeof groups === 'object' && groups !== null ? groups.secret : undefined;
    if (secret !== undefined) {
      if (isPlaceholder(secret) || (valid && !valid(secret))) return match;
      counter.count++;
      counter.found?.add(secret);
      const at = match.lastIndexOf(secret);
      return match.slice(0, at) + marker(kind) + match.slice(at + secret.length);
    }
    if (valid && !valid(match)) return match;
    counter.count++;
    counter.found?.add(match);
    return marker(kind);
  });
}

/** Replaces the matches of one pattern in the parts of a text around its hits: a match never crosses their edges. */
function replaceAround(
  text: string,
  hits: readonly number[],
  scope: 'line' | 'word',
  secret: SecretPattern,
  counter: Counter,
): string {
  const before = counter.count;
  const parts: string[] = [];
  let copied = 0;
  for (const hit of hits) {
    if (hit < copied) continue; // inside the part already done
    const [start, end] = partAround(text, hit, scope);
    parts.push(text.slice(copied, start), replaceIn(text.slice(start, end), secret, counter));
    copied = end;
  }
  if (counter.count === before) return text; // nothing replaced: no copy of a long text
  parts.push(text.slice(copied));
  return parts.join('');
}

/** The line, or the run of characters that are neither whitespace nor quotes, around `at`. */
function partAround(text: string, at: number, scope: 'line' | 'word'): [number, number] {
  if (scope === 'line') {
    const end = text.indexOf('\n', at);
    return [text.lastIndexOf('\n', at) + 1, end === -1 ? text.length : end];
  }
  let start = at;
  while (start > 0 && !breaksWord(text.charCodeAt(start - 1))) start--;
  let end = at;
  while (end < text.length && !breaksWord(text.charCodeAt(end))) end++;
  return [start, end];
}

const WHITESPACE = /\s/;

/** Whitespace (as `\s` reads it) or a quote. */
function breaksWord(code: number): boolean {
  if (code === 0x22 || code === 0x27 || code === 0x60) return true;
  if (code > 0x20 && code < 0x7f) return false;
  return WHITESPACE.test(String.fromCharCode(code));
}

/**
 * Redacts secrets in every string of a value (a session: content, tool inputs, `toolUseResult`, extra
 * fields, metadata records, diagnostics' raw text) and every object key, in place.
 *
 * @param found Collects the secrets replaced (their values), as in `redactText`.
 * @returns How many secrets were replaced.
 */
export function redactSecrets(value: unknown, found?: Set<string>): number {
  return rewriteStrings(value, (text) => redactText(text, found), { keys: true });
}

/** Replaces what the preset found and cctrail's patterns left in a text, counting each replacement. */
function replaceFindings(
  result: { text: string; count: number },
  findings: readonly PresetFinding[],
  found?: Set<string>,
): { text: string; count: number } {
  let { text, count } = result;
  for (const { value, kind } of findings) {
    if (isPlaceholder(value) || !text.includes(value)) continue;
    const parts = text.split(value);
    count += parts.length - 1;
    found?.add(value);
    text = parts.join(marker(kind));
  }
  return { text, count };
}
