/**
 * The kinds of secret cctrail redacts, as data. Token shapes follow secretlint's recommended preset and
 * gitleaks' rules (the shapes their vendors document); the key-and-value patterns cover what transcripts show:
 * `.env`, YAML, JSON, INI and shell assignments in any letter case, command-line flags, `mysql -pX`, `curl -u`.
 */

import { CREDENTIAL_SHAPES } from './credential-shapes.js';
import { ENCODED_SHAPES, VENDOR_SHAPES, WRAPPED_TOKEN } from './own-shapes.js';
import type { SecretPattern } from './rule.js';
import { SHAPES, TRANSCRIPT_PATTERNS } from './rule-shapes.js';

/** The secrets cctrail redacts, in the order they are looked for. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  WRAPPED_TOKEN,
  ...SHAPES,
  ...VENDOR_SHAPES,
  {
    kind: 'private-key',
    keywords: ['-----BEGIN '],
    scope: 'text',
    pattern:
      // A block cut before its END line (a truncated tool output) is redacted up to the end of its base64 lines.
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)/g,
  },
  { kind: 'anthropic-key', keywords: ['sk-ant-'], scope: 'word', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'stripe-key',
    keywords: ['sk_live_', 'rk_live_', 'pk_live_', 'sk_test_', 'rk_test_', 'pk_test_'],
    scope: 'word',
    pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  },
  {
    kind: 'openai-key',
    keywords: ['sk-'],
    // `sk-` at the start of a word, 20 characters of the key after it (`task-list` is not one).
    next: /(?<!\wsk-)[\w-]{20}/y,
    scope: 'word',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'aws-access-key',
    keywords: ['AKIA', 'ASIA'],
    scope: 'word',
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  },
  {
    kind: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    scope: 'word',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  {
    kind: 'slack-token',
    keywords: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxr-', 'xoxe-', 'xoxs-'],
    scope: 'word',
    pattern: /\bxox[abpres]-[A-Za-z0-9-]{10,}/g,
  },
  { kind: 'google-api-key', keywords: ['AIza'], scope: 'word', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
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
