/**
 * The kinds of secret cctrail redacts, as data. Token shapes follow secretlint's recommended preset and
 * gitleaks' rules (the shapes their vendors document); the key-and-value patterns cover what transcripts show:
 * `.env`, YAML, JSON, INI and shell assignments in any letter case, command-line flags, `mysql -pX`, `curl -u`.
 */

import { SHAPES, TRANSCRIPT_PATTERNS } from './redact-shapes.js';
import type { SecretPattern } from './secret-pattern.js';

/** The secrets cctrail redacts, in the order they are looked for. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  ...SHAPES,
  {
    kind: 'private-key',
    hints: ['-----BEGIN '],
    scope: 'text',
    pattern:
      // A block cut before its END line (a truncated tool output) is redacted up to the end of its base64 lines.
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)/g,
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
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]*:(?<secret>[^\s@/"'`]+)@/gi,
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
  ...TRANSCRIPT_PATTERNS,
];
