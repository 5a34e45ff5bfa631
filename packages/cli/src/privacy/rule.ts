/** The shape of a redaction rule: a pattern, where it can match, and the keywords that select it. */

/** One kind of secret. */
export interface SecretPattern {
  kind: string;
  /** A global regular expression. Named group `secret`, when present, is the only part replaced. */
  pattern: RegExp;
  /**
   * Keywords, one of which every match of `pattern` contains (as gitleaks' rules declare them): the pattern runs
   * only where one of them is, found by the one scan of each string (`keyword-scan.ts`). They are long enough
   * not to occur in most prose and code: `password`, `api_key`, `ghp_`, not `key` or `pw`.
   */
  keywords: readonly string[];
  /** Keywords are found in any letter case (ASCII only, as a regular expression's flag `i` reads them). */
  anyCase?: boolean;
  /**
   * A cheap second check of a keyword found: a sticky expression (flag `y` alone) that must match where the
   * keyword ends. Every match of `pattern` holds a keyword that passes it. Keywords common in ordinary text
   * (`token`, `sk-`, `://`) use it, so that `token` in prose does not run the pattern.
   */
  next?: RegExp;
  /**
   * What a match can never span, so the pattern runs only on the part of a string around each keyword: `line`
   * (a match holds no newline), `word` (no whitespace and no quote), or `text` (the whole string). Parts end
   * at characters that are not word characters, so `\b` reads the same at their edges as in the string.
   */
  scope: 'text' | 'line' | 'word';
  /** When given, a match (its `secret` group, or the whole match) is redacted only when this says it is a secret. */
  valid?: (secret: string) => boolean;
}
