/**
 * Secret redaction for published reports: every string of a value is scanned for credentials, which are
 * replaced by `[REDACTED:<kind>]`. Patterns are data; each is specific enough not to eat ordinary text
 * (ids like `toolu_…`/`msg_…` and uuids never match).
 */

import { rewriteStrings } from './rewrite-strings.js';

/**
 * What every match of a pattern contains (with the same letter case): a literal, found with `indexOf`, which
 * skips through text far faster than a pattern can (its leading `\b` or character class defeats the regular
 * expression engine's fast search, which shows on hundreds of megabytes of tool output). A literal
 * common in ordinary text (`_`, `:`) comes with `at`, a sticky expression (flag `y` alone) that starts with it:
 * the hint is only where `at` matches.
 */
type SecretHint = string | { find: string; at: RegExp };

/** One kind of secret. */
export interface SecretPattern {
  kind: string;
  /** A global regular expression. Named group `secret`, when present, is the only part replaced. */
  pattern: RegExp;
  /**
   * Hints, one of which every match of `pattern` contains: the pattern runs only where one of them is. They
   * start with an uncommon character where they can (`k-` rather than `sk-`), since `indexOf` looks for the
   * first character first.
   */
  hints: readonly SecretHint[];
  /**
   * What a match can never span, so the pattern runs only on the part of a string around each hint: `line`
   * (a match holds no newline), `word` (no whitespace and no quote), or `text` (the whole string). Parts end
   * at characters that are not word characters, so `\b` reads the same at their edges as in the string.
   */
  scope: 'text' | 'line' | 'word';
}

/** The secrets cctrail redacts. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    hints: ['-----BEGIN '],
    scope: 'text',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g,
  },
  // `k-` rather than `sk-ant-`: the search for it is shared with the next pattern's.
  { kind: 'anthropic-key', hints: ['k-'], scope: 'word', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'stripe-key',
    hints: ['_live_', '_test_'],
    scope: 'word',
    pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  },
  {
    kind: 'openai-key',
    hints: ['k-'],
    scope: 'word',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'aws-access-key',
    hints: ['AKIA', 'ASIA'],
    scope: 'word',
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  },
  {
    kind: 'github-token',
    hints: [{ find: '_', at: /_(?<=gh[pousr]_|github_pat_)/y }],
    scope: 'word',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { kind: 'slack-token', hints: ['xox'], scope: 'word', pattern: /\bxox[abpres]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', hints: ['AIza'], scope: 'word', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  {
    kind: 'jwt',
    hints: ['yJ'],
    scope: 'word',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: 'bearer-token',
    hints: ['Bearer', 'Token'],
    scope: 'text',
    pattern: /\b(?:Bearer|Token)\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  {
    kind: 'url-password',
    hints: ['://'],
    scope: 'word',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]+:(?<secret>[^\s@/"'`]+)@/gi,
  },
  {
    // Environment-style assignments: `API_KEY=…`, `export GITHUB_TOKEN="…"`, `DB_PASSWORD: …`,
    // `my_DB_PASSWORD=…`.
    kind: 'assignment',
    hints: ['SECRET', 'TOKEN', 'PASSW', 'KEY', 'CREDENTIAL'],
    scope: 'line',
    pattern:
      /(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*["']?[ \t]*[:=][ \t]*["']?(?<secret>[^\s"'`,;)]{6,})/g,
  },
  {
    // Quoted values of secret-named keys in code and config: `password: "…"`, `"api_key": "…"`,
    // `db_password = '…'`. Any letter case, which no literal covers: the hint is the `:` or `=` before the quote.
    kind: 'assignment',
    hints: [
      { find: ':', at: /:[ \t]*["']/y },
      { find: '=', at: /=[ \t]*["']/y },
    ],
    scope: 'line',
    pattern:
      /(?:password|passwd|secret|api_?key|access_?token|auth_?token|refresh_?token)["']?[ \t]*[:=][ \t]*["'](?<secret>[^"'\s]{6,})["']/gi,
  },
];

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
function replaceIn(text: string, { kind, pattern }: SecretPattern, counter: Counter): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
    const secret = typeof groups === 'object' && groups !== null ? groups.secret : undefined;
    if (secret !== undefined) {
      if (isPlaceholder(secret)) return match;
      counter.count++;
      counter.found?.add(secret);
      const at = match.lastIndexOf(secret);
      return match.slice(0, at) + marker(kind) + match.slice(at + secret.length);
    }
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
 * fields, metadata records, diagnostics' raw text), in place.
 *
 * @param found Collects the secrets replaced (their values), as in `redactText`.
 * @returns How many secrets were replaced.
 */
export function redactSecrets(value: unknown, found?: Set<string>): number {
  return rewriteStrings(value, (text) => redactText(text, found));
}
