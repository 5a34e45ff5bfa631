/**
 * cctrail's own patterns beside the vendor shapes of secretlint's preset (`preset-shapes.ts`), for what the
 * preset's expression lacks and transcripts show: each runs after the preset's, under the same name, and says
 * what it adds. gitleaks' rules (`gitleaks-rules.ts`) do not find these either (each reason says why).
 */

import type { SecretPattern } from './rule.js';

/** By the preset's rule they complement. */
export const PRESET_COMPLEMENTS = {
  // The preset wants the whole key (`sk-ant-api0N-`, 90 to 128 characters ending `AA`), gitleaks exactly 93: a
  // key cut short in an output, or of another kind (`sk-ant-oat01-`), is found by neither.
  anthropic: {
    kind: 'anthropic-key',
    keywords: ['sk-ant-'],
    scope: 'word',
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
  },
  // The preset and gitleaks find only keys holding `T3BlbkFJ` where the legacy and project keys had it: a key
  // cut short, or a project key of another length, is found by neither.
  openai: {
    kind: 'openai-key',
    keywords: ['sk-'],
    // `sk-` at the start of a word, 20 characters of the key after it (`task-list` is not one).
    next: /(?<!\wsk-)[\w-]{20}/y,
    scope: 'word',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  },
  // The preset (and gitleaks) want exactly 36 characters after `ghp_` and nothing glued after them, and
  // exactly 82 after `github_pat_`: a token glued to the next word, or a fine-grained one of another length.
  github: {
    kind: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    scope: 'word',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  // The preset wants an END line and 100 characters of base64 of an RSA, DSA, EC, OpenSSH or PGP key (gitleaks
  // 64 and an END line): a block cut before its END line (a truncated output), a short one, or an
  // `ENCRYPTED PRIVATE KEY` is found by neither. Redacted up to the end of its base64 lines.
  privatekey: {
    kind: 'private-key',
    keywords: ['-----BEGIN '],
    scope: 'text',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)/g,
  },
  // The preset and gitleaks want 34 letters after `hf_`: a token with digits, or cut short, is found by neither.
  huggingface: {
    kind: 'huggingface-token',
    keywords: ['hf_'],
    scope: 'word',
    pattern: /\bhf_[A-Za-z0-9]{30,}/g,
  },
} as const satisfies Readonly<Record<string, SecretPattern>>;
