/**
 * The kinds of secret cctrail redacts, as data, in one list that one keyword scan selects from (`prefilter.ts`).
 * The vendor shapes secretlint's preset has come from the preset (`preset-shapes.ts`, derived by a script); the
 * vendor shapes neither the preset nor gitleaks' rules (`gitleaks-rules.ts`) find, and what their expressions
 * lack, are cctrail's own (`rule-shapes.ts`, `own-shapes.ts`, `preset-complements.ts`), each with its reason; the
 * key-and-value patterns cover what transcripts show: `.env`, YAML, JSON, INI and shell assignments in any letter
 * case, command-line flags, `mysql -pX`, `curl -u`.
 */

import { CREDENTIAL_SHAPES } from './credential-shapes.js';
import { ENCODED_SHAPES, VENDOR_SHAPES, WRAPPED_TOKEN } from './own-shapes.js';
import { PRESET_COMPLEMENTS } from './preset-complements.js';
import { PRESET_SHAPES } from './preset-shapes.js';
import type { SecretPattern } from './rule.js';
import { SHAPES, TRANSCRIPT_PATTERNS } from './rule-shapes.js';

/** The secrets cctrail redacts, in the order they are looked for. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  WRAPPED_TOKEN,
  ...PRESET_SHAPES.slack.filter((shape) => shape.kind === 'slack-webhook'),
  ...PRESET_SHAPES.npm,
  ...PRESET_SHAPES.gitlab,
  ...PRESET_SHAPES.huggingface,
  PRESET_COMPLEMENTS.huggingface,
  ...PRESET_SHAPES.sendgrid,
  ...PRESET_SHAPES.shopify,
  ...PRESET_SHAPES.linear,
  ...PRESET_SHAPES['1password'],
  ...SHAPES,
  ...VENDOR_SHAPES,
  ...PRESET_SHAPES.privatekey,
  PRESET_COMPLEMENTS.privatekey,
  ...PRESET_SHAPES.anthropic,
  PRESET_COMPLEMENTS.anthropic,
  ...PRESET_SHAPES.stripe,
  ...PRESET_SHAPES.openai,
  PRESET_COMPLEMENTS.openai,
  ...PRESET_SHAPES.aws,
  ...PRESET_SHAPES.github,
  PRESET_COMPLEMENTS.github,
  ...PRESET_SHAPES.slack.filter((shape) => shape.kind === 'slack-token'),
  // gitleaks wants an entropy above 4 and a delimiter after the key (one before `.` or `&` is missed).
  { kind: 'google-api-key', keywords: ['AIza'], scope: 'word', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  // gitleaks wants 17 characters in each of the first two parts and a delimiter after: shorter or glued ones.
  {
    kind: 'jwt',
    keywords: ['eyJ'],
    scope: 'word',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: 'bearer-token',
    keywords: ['Bearer', 'Token'],
    next: /\s+[A-Za-z0-9._~+/-]{16}/y,
    scope: 'text',
    pattern: /\b(?:Bearer|Token)\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  // The preset reads http(s) and ftp(s) URLs (passwords of letters, digits, `-` and `_`) and database ones
  // (PostgreSQL, MySQL, MongoDB); gitleaks none: `git+ssh://`, `redis://:pw@`, `amqp://`, `pa$$@` are missed.
  {
    kind: 'url-password',
    keywords: ['://'],
    next: /[^\s:/@"'`]*:[^\s@/"'`]+@/y,
    scope: 'word',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]*:(?<secret>[^\s@/"'`]+)@/gi,
  },
  {
    // Environment-style assignments: `API_KEY=…`, `export GITHUB_TOKEN="…"`, `DB_PASSWORD: …`,
    // `my_DB_PASSWORD=…`.
    kind: 'assignment',
    keywords: ['SECRET', 'TOKEN', 'PASSW', 'APIKEY', 'API_KEY', 'ACCESS_KEY', 'PRIVATE_KEY', 'CREDENTIAL'],
    next: /[A-Z0-9_]*["']?[ \t]*[:=]/y,
    scope: 'line',
    pattern:
      /(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*["']?[ \t]*[:=][ \t]*["']?(?<secret>[^\s"'`,;)]{6,})/g,
  },
  {
    // Quoted values of secret-named keys in code and config: `password: "…"`, `"api_key": "…"`,
    // `db_password = '…'`, in any letter case.
    kind: 'assignment',
    keywords: ['password', 'passwd', 'secret', 'apikey', 'api_key', 'token'],
    anyCase: true,
    next: /["']?[ \t]*[:=][ \t]*["']/y,
    scope: 'line',
    pattern:
      /(?:password|passwd|secret|api_?key|access_?token|auth_?token|refresh_?token)["']?[ \t]*[:=][ \t]*["'](?<secret>[^"'\s]{6,})["']/gi,
  },
  ...TRANSCRIPT_PATTERNS,
  ...CREDENTIAL_SHAPES,
  // Last: what the shapes above found whole is replaced already.
  ...ENCODED_SHAPES,
];
