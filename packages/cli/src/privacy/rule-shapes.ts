/**
 * cctrail's own vendor shapes that neither secretlint's preset (`preset-shapes.ts`) nor gitleaks' rules
 * (`gitleaks-rules.ts`) find as transcripts show them, each with what they lack; and the ways transcripts write a
 * secret next to its name.
 */

import type { SecretPattern } from './rule.js';

/** Vendor tokens recognisable by their prefix and alphabet. */
export const SHAPES: readonly SecretPattern[] = [
  // Stripe's webhook signing secret: in neither.
  {
    kind: 'stripe-webhook-secret',
    keywords: ['whsec_'],
    scope: 'word',
    pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g,
  },
  // Google's OAuth client secret: in neither.
  {
    kind: 'google-oauth-secret',
    keywords: ['GOCSPX-'],
    scope: 'word',
    pattern: /\bGOCSPX-[A-Za-z0-9_-]{20,}/g,
  },
  // gitleaks wants a delimiter after the token (a token ending a sentence, before `.`, is missed).
  {
    kind: 'digitalocean-token',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    scope: 'word',
    pattern: /\bdo[opr]_v1_[a-fA-F0-9]{64}\b/g,
  },
  // gitleaks knows pypi.org's tokens only (`pypi-AgEIcHlwaS5vcmc`): TestPyPI's and other indexes' are missed.
  { kind: 'pypi-token', keywords: ['pypi-AgE'], scope: 'word', pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  // gitleaks finds a bot token only after a name holding `telegr` on its line: a bare token is missed.
  {
    kind: 'telegram-bot-token',
    keywords: [':AA'],
    scope: 'word',
    pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
  },
  // gitleaks wants a delimiter before and after (a secret in a query, before `&`, or after a word, is missed).
  {
    kind: 'azure-client-secret',
    keywords: ['Q~'],
    scope: 'word',
    pattern: /\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  // An Azure SAS URL's signature: in neither.
  {
    kind: 'azure-sas-signature',
    keywords: ['sig='],
    scope: 'word',
    pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/=]{16,})/g,
  },
];

// A value that is a type, a keyword or an expression in code, not a secret: `password: string`,
// `token = this.token`, `secret: Optional[str]`.
const NOT_A_VALUE =
  /^(?:string|number|boolean|bool|int|integer|float|str|bytes|none|null|nil|undefined|true|false|required|optional|object|any|unknown|text|varchar|hidden|masked|redacted|changeme|example|placeholder)$/i;
const EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
// A value that names a secret is a reference to one: `token: csrfToken`, `password: dbPassword`.
const NAMES_A_SECRET = /password|passwd|secret|token|credential|api_?key/i;

/** Whether a value written after a secret's name looks like a secret rather than code. */
function secretValue(value: string): boolean {
  return !NOT_A_VALUE.test(value) && !EXPRESSION.test(value) && !NAMES_A_SECRET.test(value);
}

/** Whether a `Basic` credential is base64 of `user:password`. */
function basicCredential(value: string): boolean {
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(text);
}

/** Words as written in lower case, UPPER CASE and Capitalized (camelCase keys end in a Capitalized word). */
function caseForms(words: readonly string[]): string {
  const forms = words.flatMap((w) => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]);
  return `(?:${forms.join('|')})`;
}

/** Names that say their value is a secret, as the last part of a key. */
const SECRET_NAME = caseForms([
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api[_-]?key',
  'api[_-]?Key', // `X-Api-Key` (HTTP headers), `Api_Key`
  'apiKey',
  'access[_-]?key',
  'access[_-]?Key',
  'accessKey',
  'private[_-]?key',
  'private[_-]?Key',
  'privateKey',
  'auth[_-]?key',
  'auth[_-]?Key',
  'authKey',
  'credentials?',
  'accountKey',
  'sharedAccessKey',
]);
// What every name above ends with, in any letter case.
const SECRET_NAME_KEYWORDS = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'apikey',
  'api_key',
  'api-key',
  'accesskey',
  'access_key',
  'access-key',
  'privatekey',
  'private_key',
  'private-key',
  'authkey',
  'auth_key',
  'auth-key',
  'credential',
  'credentials',
  'accountkey',
];
const FLAG_NAME = caseForms([
  'password',
  'passwd',
  'pass',
  'token',
  'secret',
  'api-?key',
  'access-token',
  'auth-token',
  'client-secret',
]);
// A flag's `-` and the start of its name, in any letter case (`--access-token` holds `-token`).
const FLAG_KEYWORDS = ['-pass', '-token', '-secret', '-api'];

/** A secret written next to its name: assignments in any case and syntax, flags, connection commands. */
export const TRANSCRIPT_PATTERNS: readonly SecretPattern[] = [
  {
    // `db_password=…`, `password: …` (YAML), `Password = …` (INI), `"x-api-key": "…"`, `AccountKey=…;`.
    kind: 'assignment',
    keywords: SECRET_NAME_KEYWORDS,
    anyCase: true,
    next: /["']?[ \t]*[:=]/y,
    scope: 'line',
    pattern: new RegExp(
      `${SECRET_NAME}["']?[ \\t]*[:=][ \\t]*["']?(?<secret>[^\\s"'\`,;()<>{}[\\]]{6,})(?=$|[\\s"'\`,;)<>}\\]])`,
      'g',
    ),
    valid: secretValue,
  },
  {
    // `--password X`, `--token=X`, `-api-key "X"`.
    kind: 'flag',
    keywords: FLAG_KEYWORDS,
    anyCase: true,
    scope: 'line',
    pattern: new RegExp(
      `(?<![\\w-])--?${FLAG_NAME}(?:=|[ \\t]+)["']?(?<secret>[^\\s"'\`-][^\\s"'\`]{2,})`,
      'g',
    ),
    valid: secretValue,
  },
  {
    // `mysql -u root -pX` (no space: with one, mysql asks for the password).
    kind: 'flag',
    keywords: ['mysql'],
    scope: 'line',
    pattern: /\bmysql(?:dump|admin|sh)?\b[^\n]*?(?<![\w-])-p(?<secret>[^\s"'`-][^\s"'`]{2,})/g,
  },
  {
    kind: 'basic-auth',
    keywords: ['curl'],
    scope: 'line',
    pattern: /\bcurl\b[^\n]*?\s(?:-u|--user)[ \t]*["']?[^\s:"']+:(?<secret>[^\s"'@]+)/g,
  },
  {
    kind: 'basic-auth',
    keywords: ['Basic', 'basic', 'BASIC'],
    next: /[ \t]+[A-Za-z0-9+/]{8}/y,
    scope: 'line',
    pattern: /\b(?:Basic|basic|BASIC)[ \t]+(?<secret>[A-Za-z0-9+/]{8,}(?:={1,2}|(?![A-Za-z0-9+/=])))/g,
    valid: basicCredential,
  },
];
