/**
 * Passwords on command lines and in credential files, as cctrail's own shapes (neither gitleaks' rules nor
 * secretlint's preset has them): `mysql -p'…'`, `sshpass -p`, `redis-cli -a`, `docker login -p`, `.pgpass`
 * lines, `.netrc` passwords, kubeconfig keys, cookies, PuTTY keys, npmrc `_auth`, `Private key: 0x…`.
 */

import type { SecretPattern } from './rule.js';

// A value on a command line: quoted (anything but its quote) or bare (no whitespace, no quote).
const ARGUMENT = `(?:'(?<q1>[^'\\n]{3,})'|"(?<q2>[^"\\n]{3,})"|(?<bare>[^\\s"'\`;|&]{3,}))`;

/** Which group of `ARGUMENT` matched: the part to replace. */
function argument(flag: string): RegExp {
  return new RegExp(`${flag}${ARGUMENT}`, 'g');
}

export const CREDENTIAL_SHAPES: readonly SecretPattern[] = [
  {
    // `mysql -p'…'`, `mysql --password="…"` (the bare `-pX` is `rules.ts`').
    kind: 'command-password',
    keywords: ['mysql', 'mariadb'],
    scope: 'line',
    pattern: argument(
      `\\b(?:mysql|mariadb)(?:dump|admin|sh|-dump|-admin)?\\b[^\\n]*?(?<![\\w-])(?:-p|--password=)`,
    ),
  },
  {
    kind: 'command-password',
    keywords: ['sshpass'],
    scope: 'line',
    pattern: argument('\\bsshpass\\b[^\\n]*?(?<![\\w-])-p[ \\t]*'),
  },
  {
    kind: 'command-password',
    keywords: ['redis-cli'],
    scope: 'line',
    pattern: argument('\\bredis-cli\\b[^\\n]*?(?<![\\w-])(?:-a|--pass|--askpass)[ \\t=]+'),
  },
  {
    kind: 'command-password',
    keywords: ['login'],
    next: /\b[^\n]*?(?<![\w-])-p\b/y,
    scope: 'line',
    pattern: argument(
      '\\b(?:docker|podman|helm registry|oras|buildah|skopeo)[ \\t]+login\\b[^\\n]*?(?<![\\w-])-p[ \\t]+',
    ),
  },
  {
    // .pgpass: `host:port:database:user:password`.
    kind: 'pgpass',
    keywords: [':5432:', ':*:'],
    scope: 'line',
    pattern: /(?<![\w.:*-])[\w.*-]+:(?:\d{2,5}|\*):[^\s:"',]+:[^\s:"',]+:(?<secret>[^\s"']{3,})(?![^\s"'])/g,
  },
  {
    // .netrc: `machine host login user password secret`, on one line or several.
    kind: 'netrc-password',
    keywords: ['machine'],
    scope: 'text',
    pattern: /\bmachine\s+\S+\s+(?:login\s+\S+\s+)?password\s+(?<secret>\S{3,})/g,
  },
  {
    kind: 'kubeconfig-key',
    keywords: ['client-key-data', 'client-key'],
    scope: 'line',
    pattern: /\bclient-key(?:-data)?["']?[ \t]*:[ \t]*["']?(?<secret>[A-Za-z0-9+/=]{16,})/g,
  },
  {
    // The values of a `Cookie:` or `Set-Cookie:` header (the names stay).
    kind: 'cookie',
    keywords: ['cookie:'],
    anyCase: true,
    scope: 'line',
    pattern: /\b(?:Set-)?Cookie:[ \t]*(?<secret>[^\s"'`\\]{8,}(?:[ \t]+[^\s"'`\\]+)*)/gi,
  },
  {
    // PuTTY `.ppk`: the private lines and their MAC.
    kind: 'putty-key',
    keywords: ['Private-Lines:', 'Private-MAC:'],
    scope: 'text',
    pattern:
      /\bPrivate-(?:Lines:[ \t]*\d+\r?\n|MAC:[ \t]*)(?<secret>[A-Za-z0-9+/=]+(?:\r?\n[A-Za-z0-9+/=]{16,})*)/g,
  },
  {
    // npmrc: `_auth = base64(user:password)`, `_password`, `:_authToken=` of a registry that is not npm's.
    kind: 'npmrc-auth',
    keywords: ['_auth', '_password'],
    scope: 'line',
    pattern: /(?<![A-Za-z0-9])_(?:auth|authToken|password)[ \t]*=[ \t]*["']?(?<secret>[^\s"'$]{8,})/g,
  },
  {
    // `Private key: 0x…` (a wallet's), `private key = …`.
    kind: 'hex-private-key',
    keywords: ['private key', 'private_key', 'privatekey', 'private-key'],
    anyCase: true,
    scope: 'line',
    pattern: /\bprivate[ _-]?key["']?[ \t]*[:=][ \t]*["']?(?<secret>(?:0x)?[a-fA-F0-9]{64})\b/gi,
  },
];
