/**
 * Values that are never secrets, whatever rule matched them: markers, template placeholders (`{{.Env.X}}`,
 * `${X}`, `<token>`, `%(name)s`), values that say they are examples (`changeme`, `xxxx`, `sk-...`), and, next to
 * a secret's name, ordinary words and identifiers (`disabled`, `prompt`, `phc_development_key`).
 */

const MARKER_OR_REFERENCE = /^(?:\[REDACTED|\$\{?[A-Za-z_]|<|your[-_]|process\.env|os\.environ|env\.)/i;
const PLACEHOLDER =
  /\{\{|\$\{|^%\(|change[-_]?me|changeit|^(?:example|dummy|placeholder|redacted|test|secret|password)$|xxxx|^[\w-]{0,12}(?:\.\.\.|…)$/i;
// One character repeated: `********`, `xxxxxxxx`, `0x000…0`.
const REPEATED = /^(?:0x)?(.)\1+$/;
// Lower-case words and snake_case names: what a config says (`disabled`, `keychain`), not a credential.
const WORD = /^[a-z]+(?:_[a-z]+)*$/;

/**
 * Whether a value a rule matched is not a secret.
 *
 * @param value The matched value.
 * @param named Whether it was written next to a secret's name (an assignment, a flag): then a word is a setting.
 */
export function isNotASecret(written: string, named: boolean): boolean {
  // Some of gitleaks' rules take the quotes with the value (`"…"`).
  const value = /^(["']).*\1$/.test(written) ? written.slice(1, -1) : written;
  if (MARKER_OR_REFERENCE.test(value) || PLACEHOLDER.test(value) || REPEATED.test(value)) return true;
  if (named) return /^\d+$/.test(value) || WORD.test(value);
  // A vendor's rule: digits alone can be its secret (an id); a long lower-case run is a token (`hf_…`).
  return value.length <= 24 && WORD.test(value);
}
