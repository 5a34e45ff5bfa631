/**
 * cctrail's own shapes, for what neither gitleaks' rules nor secretlint's preset finds: vendor tokens they do
 * not know yet, passwords on command lines and in credential files, tokens a terminal wrapped over two lines,
 * AWS keys inside base64, and tokens with a known prefix cut short in an output.
 */

import type { SecretPattern } from './rule.js';

/** Vendor tokens with a prefix of their own (the vendors' documented shapes). */
export const VENDOR_SHAPES: readonly SecretPattern[] = [
  // xAI's API keys: in neither.
  { kind: 'xai-key', keywords: ['xai-'], scope: 'word', pattern: /\bxai-[A-Za-z0-9_]{60,}/g },
  // Replicate's API tokens: in neither.
  {
    kind: 'replicate-token',
    keywords: ['r8_'],
    next: /[A-Za-z0-9]{20}/y,
    scope: 'word',
    pattern: /\br8_[A-Za-z0-9_-]{30,}/g,
  },
  // LangSmith's keys: in neither.
  {
    kind: 'langsmith-key',
    keywords: ['lsv2_pt_', 'lsv2_sk_'],
    scope: 'word',
    pattern: /\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}/g,
  },
  // Pinecone's API keys: in neither.
  {
    kind: 'pinecone-key',
    keywords: ['pcsk_'],
    scope: 'word',
    pattern: /\bpcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}/g,
  },
  // ElevenLabs' API keys: in neither.
  {
    kind: 'elevenlabs-key',
    keywords: ['sk_'],
    next: /[a-f0-9]{48}/y,
    scope: 'word',
    pattern: /\bsk_[a-f0-9]{48}(?![A-Za-z0-9])/g,
  },
  // gitleaks wants exactly 186 characters after `ATATT3`: a token cut short in an output is missed.
  { kind: 'atlassian-token', keywords: ['ATATT'], scope: 'word', pattern: /\bATATT[A-Za-z0-9_=-]{60,}/g },
  // gitleaks wants a user token's 64 hex characters, an org token's JSON start: other lengths are missed.
  {
    kind: 'sentry-token',
    keywords: ['sntrys_', 'sntryu_'],
    scope: 'word',
    pattern: /\bsntry[su]_[A-Za-z0-9+/=_]{40,}/g,
  },
  // gitleaks finds these keys only after a name holding `newrelic` on their line.
  {
    kind: 'newrelic-key',
    keywords: ['NRAK-', 'NRII-', 'NRJS-'],
    scope: 'word',
    pattern: /\bNR(?:AK|II|JS)-[A-Za-z0-9]{20,}/g,
  },
  // Supabase's access tokens: in neither.
  { kind: 'supabase-token', keywords: ['sbp_'], scope: 'word', pattern: /\bsbp_(?:v0_)?[a-f0-9]{40}/g },
  // gitleaks knows only personal tokens (`dp.pt.`): service, CLI, SCIM and audit tokens are missed.
  {
    kind: 'doppler-token',
    keywords: ['dp.st.', 'dp.ct.', 'dp.sa.', 'dp.pt.', 'dp.scim.', 'dp.audit.'],
    scope: 'word',
    pattern: /\bdp\.(?:st|ct|sa|pt|scim|audit)\.[A-Za-z0-9_.-]{20,}/g,
  },
  // Google's OAuth access tokens (`ya29.`): in neither.
  { kind: 'google-oauth-token', keywords: ['ya29.'], scope: 'word', pattern: /\bya29\.[A-Za-z0-9_-]{20,}/g },
  // Google's OAuth refresh tokens (`1//0`): in neither.
  {
    kind: 'google-refresh-token',
    keywords: ['1//0'],
    scope: 'word',
    pattern: /(?<![\w/])1\/\/0[A-Za-z0-9_-]{30,}/g,
  },
  // Bitbucket's app passwords and tokens by their prefix: in neither (gitleaks wants `bitbucket` on the line).
  {
    kind: 'bitbucket-token',
    keywords: ['ATBB', 'ATCT'],
    scope: 'word',
    pattern: /\bAT(?:BB|CT)[A-Za-z0-9_=-]{24,}/g,
  },
  // gitleaks finds `key-…` only after a name holding `mailgun` on its line.
  {
    kind: 'mailgun-key',
    keywords: ['key-'],
    next: /[a-f0-9]{32}/y,
    scope: 'word',
    pattern: /\bkey-[a-f0-9]{32}(?![A-Za-z0-9])/g,
  },
  // gitleaks finds these keys only after a name holding `mailchimp` on their line.
  {
    kind: 'mailchimp-key',
    keywords: ['-us'],
    next: /\d{1,2}(?![A-Za-z0-9])/y,
    scope: 'word',
    pattern: /\b[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9])/g,
  },
  // gitleaks wants `HRKU-AA` and exactly 58 characters: another generation or a cut key is missed.
  { kind: 'heroku-key', keywords: ['HRKU-'], scope: 'word', pattern: /\bHRKU-[A-Za-z0-9_-]{20,}/g },
  // OpenAI's session keys (`sess-`): in neither.
  {
    kind: 'openai-session',
    keywords: ['sess-'],
    next: /[A-Za-z0-9]{30}/y,
    scope: 'word',
    pattern: /\bsess-[A-Za-z0-9]{30,}/g,
  },
  // Discord's bot tokens: in neither (gitleaks' Discord rules are a client id, a secret and a 64-hex token).
  {
    // The user id in base64 (`MT…` for ids from 2021 on), a time stamp, an HMAC; on a line that names Discord or
    // sends it as a bot's (two-letter keywords such as `MT` would hold up every string's scan: `nd`, `ot`).
    kind: 'discord-bot-token',
    keywords: ['bot ', 'discord'],
    anyCase: true,
    scope: 'line',
    pattern: /\b[MNO][A-Za-z0-9_-]{21,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}/g,
  },
  // Discord's webhook URLs: in neither.
  {
    kind: 'discord-webhook',
    keywords: ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
    scope: 'word',
    pattern: /discord(?:app)?\.com\/api\/webhooks\/\d+\/(?<secret>[A-Za-z0-9_-]{20,})/g,
  },
  // gitleaks wants a whole `webhookb2` URL: Outlook's and Power Automate's (`logic.azure.com`) are missed.
  {
    kind: 'teams-webhook',
    keywords: ['.webhook.office.com/', 'outlook.office.com/webhook', '.logic.azure.com'],
    scope: 'word',
    pattern:
      /(?:webhook\.office\.com|outlook\.office\.com|logic\.azure\.com(?::\d+)?)\/(?<secret>[^\s"'`<>]{20,})/g,
  },
  // Firebase's legacy server keys: in neither.
  {
    kind: 'firebase-server-key',
    keywords: [':APA91b'],
    scope: 'word',
    pattern: /\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}/g,
  },
  // Azure DevOps personal access tokens in an environment line: in neither.
  {
    kind: 'azure-devops-pat',
    keywords: ['_PAT', 'ACCESSTOKEN'],
    anyCase: true,
    next: /["']?[ \t]*[:=]/y,
    scope: 'line',
    pattern:
      /\b(?:AZURE_DEVOPS_(?:EXT_)?PAT|ADO_PAT|[A-Z_]*_PAT|SYSTEM_ACCESSTOKEN)["']?[ \t]*[:=][ \t]*["']?(?<secret>[A-Za-z0-9]{40,84})\b/gi,
  },
];

// The prefixes of tokens whose length the vendor fixes: one cut short in an output keeps its prefix.
const KNOWN_PREFIX =
  'gh[pousr]_|github_pat_|sk-ant-(?:api|admin|oat)\\d\\d-|sk-(?:proj|svcacct|admin)-|xox[abprse]-|glpat-|' +
  'AKIA|ASIA|[sr]k_live_|whsec_|do[opr]_v1_|xai-|pplx-|lsv2_pt_|sbp_|ATATT|PMAK-|NRAK-|HRKU-|dckr_pat_|shpat_|' +
  'sntry[su]_|pscale_tkn_|glcbt-|glft-|ops_eyJ|r8_|pcsk_';
const PREFIX_KEYWORDS = [
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'sk-ant-',
  'sk-proj-',
  'sk-svcacct-',
  'sk-admin-',
  'xoxa-',
  'xoxb-',
  'xoxp-',
  'xoxr-',
  'xoxs-',
  'xoxe-',
  'glpat-',
  'AKIA',
  'ASIA',
  'sk_live_',
  'rk_live_',
  'whsec_',
  'dop_v1_',
  'doo_v1_',
  'dor_v1_',
  'xai-',
  'pplx-',
  'lsv2_pt_',
  'sbp_',
  'ATATT',
  'PMAK-',
  'NRAK-',
  'HRKU-',
  'dckr_pat_',
  'shpat_',
  'sntrys_',
  'sntryu_',
  'pscale_tkn_',
  'glcbt-',
  'glft-',
  'ops_eyJ',
  'r8_',
  'pcsk_',
];

/** A tail of a token: letters and digits both (`ghp_example` is a name, `ghp_8fK2…` a token). */
function tokenTail(value: string): boolean {
  const tail = value.replace(new RegExp(`^(?:${KNOWN_PREFIX})`), '');
  return /\d/.test(tail) && /[A-Za-z]/.test(tail) && !/^[a-z]+(?:_[a-z]+)+$/.test(tail);
}

/** Whether base64 text holds an AWS key id. */
function holdsAwsKey(value: string): boolean {
  for (let skip = 0; skip < 4; skip++) {
    const text = Buffer.from(value.slice(skip), 'base64').toString('latin1');
    if (/(?:AKIA|ASIA)[0-9A-Z]{16}/.test(text)) return true;
  }
  return false;
}

/** Tokens of one fixed length, by prefix: a first part that long is whole, and the next line is not its rest. */
const WHOLE_LENGTHS: readonly [RegExp, number][] = [
  [/^gh[pousr]_/, 40],
  [/^(?:AKIA|ASIA)/, 20],
  [/^glpat-/, 26],
];

/**
 * Whether the rest of a wrapped token, on the next line, reads as one (letters and digits), after a first part
 * that is not a whole token already, and is not the date that starts a log line.
 */
function wrappedTail(value: string): boolean {
  const head = value.slice(0, value.search(/[ \t]*\r?\n/));
  if (WHOLE_LENGTHS.some(([prefix, length]) => prefix.test(head) && head.length >= length)) return false;
  const tail = value.slice(value.lastIndexOf('\n') + 1).trim();
  return /\d/.test(tail) && /[A-Za-z]/.test(tail) && !/^\d{4}-\d\d-\d\d/.test(tail);
}

/**
 * A token a terminal wrapped: its first part ends a line, the rest starts the next. It runs before every other
 * shape: one of them would replace the first part alone.
 */
export const WRAPPED_TOKEN: SecretPattern = {
  kind: 'wrapped-token',
  keywords: PREFIX_KEYWORDS,
  scope: 'text',
  pattern: new RegExp(
    `(?<![A-Za-z0-9])(?:${KNOWN_PREFIX})[A-Za-z0-9_-]*[ \\t]*\\r?\\n[ \\t]*[A-Za-z0-9_-]{4,}`,
    'g',
  ),
  valid: wrappedTail,
};

/** Encodings: cut tokens, AWS keys in base64. */
export const ENCODED_SHAPES: readonly SecretPattern[] = [
  {
    // A token cut short: its prefix and at least eight characters of it.
    kind: 'truncated-token',
    keywords: PREFIX_KEYWORDS,
    scope: 'word',
    pattern: new RegExp(`(?<![A-Za-z0-9])(?:${KNOWN_PREFIX})[A-Za-z0-9_-]{8,}`, 'g'),
    valid: tokenTail,
  },
  {
    // `AKIA` and `ASIA` at each of the three alignments of base64.
    kind: 'base64-aws-key',
    keywords: ['QUtJQ', 'QVNJQ', 'FLSU', 'FTSU', 'S0lB', 'U0lB'],
    scope: 'word',
    // From the start of a run only, looking forward lazily: linear on a long blob of base64 (an image).
    pattern: /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]*?(?:QUtJQ|QVNJQ|FLSU|FTSU|S0lB|U0lB)[A-Za-z0-9+/]*={0,2}/g,
    valid: holdsAwsKey,
  },
];
