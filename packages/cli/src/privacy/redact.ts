/**
 * Secret redaction for published reports: every string of a value is scanned for credentials, which are
 * replaced by `[REDACTED:<kind>]`. Patterns are data; each is specific enough not to eat ordinary text
 * (ids like `toolu_…`/`msg_…` and uuids never match). A string is read once for the keywords of every rule
 * (`prefilter.ts`); only the rules whose keywords it holds run, each on the words or lines around them.
 */

import { escapesAsText } from './escapes.js';
import { type Finding, gitleaksFindings } from './gitleaks-scan.js';
import { isNotASecret } from './placeholders.js';
import { type Selection, selectRules } from './prefilter.js';
import { presetRules, presetSecrets } from './preset-rules.js';
import { PRESET_DERIVED } from './preset-shapes.js';
import { mapStrings } from './rewrite-strings.js';
import type { SecretPattern } from './rule.js';
import { SECRET_PATTERNS } from './rules.js';

export { SECRET_PATTERNS };

/**
 * Where the secrets a redaction replaced are collected: their values, or their values and the rule that found
 * each (to count by rule).
 */
export type Found = Set<string> | Map<string, string>;

function remember(found: Found | undefined, value: string, kind: string): void {
  if (found instanceof Map) found.set(value, kind);
  else found?.add(value);
}

/** A replacement marker: what was there, never its value. */
function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Redacts the secrets in one string.
 *
 * @param found Collects the secrets replaced (their values), to count each once however often it appears.
 * @returns The new text and the number of secrets replaced.
 */
export function redactText(text: string, found?: Found): { text: string; count: number } {
  const selection = selectRules(text);
  return selection === null ? { text, count: 0 } : redactSelection(text, selection, found);
}

/**
 * Redacts the secrets in one string, as `redactText` does, for a caller that needs only the text.
 *
 * @param found Collects the secrets replaced, as in `redactText`.
 * @returns The new text, or the string itself when it holds no secret.
 */
export function redactString(text: string, found?: Found): string {
  // Most strings select no rule: nothing allocated for them.
  const selection = selectRules(text);
  if (selection === null) return text;
  const result = redactSelection(text, selection, found);
  return result.count > 0 ? result.text : text;
}

/** `redactText` of a string whose keyword scan selected rules. */
function redactSelection(text: string, selection: Selection, found?: Found): { text: string; count: number } {
  if (!selection.escape) return redactSelected(text, selection, found);
  // Terminal colour codes can split a secret or hide its edges: the text is scanned without them, and
  // published without them when it held a secret.
  const plain = text.replace(ANSI_ESCAPE, '');
  const again = selectRules(plain);
  const result = again === null ? { text: plain, count: 0 } : redactSelected(plain, again, found);
  return result.count > 0 ? result : { text, count: 0 };
}

/**
 * Every rule set a keyword scan selected in a text without terminal codes: cctrail's patterns, then what
 * gitleaks' rules and secretlint's preset find. A text that writes escapes (`\\n`, `\\u000a`, `%3D`) is read
 * again as what they stand for: a token glued to `\\n` has no word edge before it as written.
 */
function redactSelected(text: string, selection: Selection, found?: Found): { text: string; count: number } {
  const result = redactRules(text, selection, found);
  if (!escapeNearHit(text, selection)) return result;
  const view = escapesAsText(text);
  if (view === null) return result;
  const again = selectRules(view);
  if (again === null) return result;
  // What the view's secrets are made of is replaced in the text as written, each part between whitespace on its
  // own (a wrapped token spans `\n`).
  const inView = new Map<string, string>();
  redactRules(view, again, inView);
  const findings = [...inView].flatMap(([value, kind]) =>
    value
      .split(/\s+/)
      .filter((part) => part.length >= 4)
      .map((part) => ({ value: part, kind })),
  );
  return replaceFindings(result, findings, found);
}

// How far before and after a keyword an escape can matter: glued to a token's start, after its name
// (`password\":`), or where a terminal wrapped it (`\n` after the first part).
const ESCAPE_BEFORE = 8;
const ESCAPE_AFTER = 160;

/** Whether a text writes an escape (`\`, `%`) near a keyword of the rules selected: only then is it read again. */
function escapeNearHit(text: string, selection: Selection): boolean {
  if (text.indexOf('\\') === -1 && text.indexOf('%') === -1) return false;
  if (handlersToRun(selection.preset).length > 0) return true;
  for (const map of [selection.rules, selection.gitleaks])
    for (const hits of map.values())
      for (const hit of hits) {
        const start = Math.max(0, hit - ESCAPE_BEFORE);
        const end = Math.min(text.length, hit + ESCAPE_AFTER);
        for (let i = start; i < end; i++) {
          const c = text.charCodeAt(i);
          if (c === 0x5c || c === 0x25) return true;
        }
      }
  return false;
}

// For each rule of the preset, whether cctrail runs it as its own patterns (`preset-shapes.ts`), not its handler.
let derived: readonly boolean[] | null = null;

/** The preset's rules selected whose handlers run: not those derived into cctrail's patterns. */
function handlersToRun(selected: readonly number[]): readonly number[] {
  if (selected.length === 0) return selected;
  derived ??= presetRules().map(({ kind }) => PRESET_DERIVED.has(kind));
  const table = derived;
  return selected.some((i) => table[i]) ? selected.filter((i) => !table[i]) : selected;
}

/** The rules a keyword scan selected, over one text. */
function redactRules(text: string, selection: Selection, found?: Found): { text: string; count: number } {
  const result = redactShapes(text, selection, found);
  // gitleaks and the preset read the text as written; what cctrail's patterns replaced already is not found again.
  const findings: Finding[] = [];
  for (const [index, hits] of selection.gitleaks) gitleaksFindings(text, index, hits, findings);
  const preset = handlersToRun(selection.preset);
  if (preset.length > 0) findings.push(...presetSecrets(text, preset));
  return findings.length === 0 ? result : replaceFindings(result, findings, found);
}

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks).
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** cctrail's patterns selected in a text, each around its keywords; the text is scanned again once it changes. */
function redactShapes(text: string, selection: Selection, found?: Found): { text: string; count: number } {
  const counter: Counter = { count: 0, found };
  let out = text;
  let hits: Map<number, number[]> | null = selection.rules;
  for (let index = 0; index < SECRET_PATTERNS.length; index++) {
    hits ??= selectRules(out)?.rules ?? new Map();
    const at = hits.get(index);
    if (at === undefined) continue;
    const secret = SECRET_PATTERNS[index]!;
    const before = counter.count;
    out =
      secret.scope === 'text'
        ? replaceIn(out, secret, counter)
        : replaceAround(out, at, secret.scope, secret, counter);
    if (counter.count !== before) hits = null;
  }
  return { text: out, count: counter.count };
}

/** What a redaction has replaced so far. */
interface Counter {
  count: number;
  found: Found | undefined;
}

/** Replaces the matches of one pattern in a text. */
function replaceIn(text: string, { kind, pattern, valid }: SecretPattern, counter: Counter): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
    // `secret`, or the one of a command-line value's forms that matched (`credential-shapes.ts`).
    const secret =
      typeof groups === 'object' && groups !== null
        ? (groups.secret ?? groups.q1 ?? groups.q2 ?? groups.bare)
        : undefined;
    if (secret !== undefined) {
      if (isNotASecret(secret, true) || (valid && !valid(secret))) return match;
      counter.count++;
      remember(counter.found, secret, kind);
      const at = match.lastIndexOf(secret);
      return match.slice(0, at) + marker(kind) + match.slice(at + secret.length);
    }
    if (valid && !valid(match)) return match;
    counter.count++;
    remember(counter.found, match, kind);
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
 * fields, metadata records, diagnostics' raw text) and every object key.
 *
 * @param value Any JSON value; it is left as it is.
 * @param found Collects the secrets replaced (their values), as in `redactText`.
 * @returns The value redacted (the same value when it holds no secret; else a copy sharing what holds none), and
 *   how many secrets were replaced.
 */
export function redactSecrets<T>(value: T, found?: Found): { value: T; count: number } {
  let count = 0;
  const redact = (text: string): string => {
    const result = redactText(text, found);
    count += result.count;
    return result.count > 0 ? result.text : text;
  };
  const redacted = mapStrings(value, { value: redact, key: redact });
  return { value: redacted, count };
}

/** Replaces what other rules found and cctrail's patterns left in a text, counting each replacement. */
function replaceFindings(
  result: { text: string; count: number },
  findings: readonly Finding[],
  found?: Found,
): { text: string; count: number } {
  let { text, count } = result;
  // The longest first: a value that holds another is replaced whole.
  const ordered =
    findings.length > 1 ? [...findings].sort((a, b) => b.value.length - a.value.length) : findings;
  for (const { value, kind } of ordered) {
    if (isNotASecret(value, false) || !text.includes(value)) continue;
    const parts = text.split(value);
    count += parts.length - 1;
    remember(found, value, kind);
    text = parts.join(marker(kind));
  }
  return { text, count };
}
