/** The shape of a redaction rule: a pattern, where it can match, and the literals that find it fast. */

/**
 * What every match of a pattern contains (with the same letter case): a literal, found with `indexOf`, which
 * skips through text far faster than a pattern can (its leading `\b` or character class defeats the regular
 * expression engine's fast search, which shows on hundreds of megabytes of tool output). A literal
 * common in ordinary text (`_`, `:`) comes with `at`, a sticky expression (flag `y` alone) that starts with it:
 * the hint is only where `at` matches.
 */
export type SecretHint = string | { find: string; at: RegExp };

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
  /** When given, a match (its `secret` group, or the whole match) is redacted only when this says it is a secret. */
  valid?: (secret: string) => boolean;
}
