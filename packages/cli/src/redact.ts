/**
 * Secret redaction for published reports: every string of a value is scanned for credentials, which are
 * replaced by `[REDACTED:<kind>]`. Patterns are data; each is specific enough not to eat ordinary text
 * (ids like `toolu_…`/`msg_…` and uuids never match).
 */

/** One kind of secret. */
export interface SecretPattern {
  kind: string;
  /** A global regular expression. Named group `secret`, when present, is the only part replaced. */
  pattern: RegExp;
}

/** The secrets cctrail redacts. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g,
  },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'slack-token', pattern: /\bxox[abpres]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer-token', pattern: /\b(?:Bearer|Token)\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g },
  {
    kind: 'url-password',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]+:(?<secret>[^\s@/"'`]+)@/gi,
  },
  {
    // Environment-style assignments: `API_KEY=…`, `export GITHUB_TOKEN="…"`, `DB_PASSWORD: …`.
    kind: 'assignment',
    pattern:
      /\b[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*["']?[ \t]*[:=][ \t]*["']?(?<secret>[^\s"'`,;)]{6,})/g,
  },
  {
    // Quoted values of secret-named keys in code and config: `password: "…"`, `"api_key": "…"`.
    kind: 'assignment',
    pattern:
      /\b(?:password|passwd|secret|client_?secret|api_?key|access_?token|auth_?token|refresh_?token)["']?[ \t]*[:=][ \t]*["'](?<secret>[^"'\s]{6,})["']/gi,
  },
];

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
 * @returns The new text and the number of secrets replaced.
 */
export function redactText(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const { kind, pattern } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
      const secret = typeof groups === 'object' && groups !== null ? groups.secret : undefined;
      if (secret !== undefined) {
        if (isPlaceholder(secret)) return match;
        count++;
        const at = match.lastIndexOf(secret);
        return match.slice(0, at) + marker(kind) + match.slice(at + secret.length);
      }
      count++;
      return marker(kind);
    });
  }
  return { text: out, count };
}

/**
 * Rewrites every string inside a JSON value in place (object values and array items; keys are kept),
 * walking with an explicit stack so deep values cannot overflow. Base64 image payloads are skipped.
 *
 * @param value An object or array (a session, an index).
 * @param rewrite Returns the new string and how many changes it made.
 * @returns The total number of changes.
 */
export function rewriteStrings(
  value: unknown,
  rewrite: (text: string) => { text: string; count: number },
): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === 'string') {
          const result = rewrite(item);
          if (result.count > 0) {
            node[i] = result.text;
            total += result.count;
          }
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const isImage = record.type === 'image' || record.type === 'base64';
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item === 'string') {
          if (isImage && key === 'data') continue;
          const result = rewrite(item);
          if (result.count > 0) {
            record[key] = result.text;
            total += result.count;
          }
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return total;
}

/**
 * Redacts secrets in every string of a value (a session: content, tool inputs, `toolUseResult`, extra
 * fields, metadata records, diagnostics' raw text), in place.
 *
 * @returns How many secrets were replaced.
 */
export function redactSecrets(value: unknown): number {
  return rewriteStrings(value, redactText);
}

// A home path starts a path, or follows `file://`; `/usr/home/x` is not one.
const HOME_PATHS = [
  /(?:(?<=file:\/\/)|(?<![\w/]))\/home\/[^/\s"'`]+(?=\/|\b)/g,
  /(?:(?<=file:\/\/)|(?<![\w/]))\/Users\/[^/\s"'`]+(?=\/|\b)/g,
  /\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?[^\\\s"'`]+(?=\\|\b)/g,
];

/** The project-folder form of a home path: `-home-alice-…`, `-Users-alice-…`. */
const HOME_SLUG = /^-(?:home|Users)-[^-]+(?=-|$)/;

/**
 * Replaces home-folder paths (`/home/<user>`, `/Users/<user>`, `C:\Users\<user>`) with `~`.
 *
 * @returns The new text and the number of replacements.
 */
export function shortenHome(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const pattern of HOME_PATHS) {
    out = out.replace(pattern, () => {
      count++;
      return '~';
    });
  }
  if (HOME_SLUG.test(out)) {
    out = out.replace(HOME_SLUG, '~');
    count++;
  }
  return { text: out, count };
}

/**
 * Replaces home-folder paths with `~` in every string of a value, in place.
 *
 * @returns How many paths were shortened.
 */
export function shortenHomePaths(value: unknown): number {
  return rewriteStrings(value, shortenHome);
}
