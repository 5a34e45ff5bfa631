import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shortenHome, shortenHomePaths } from '../src/privacy/home-paths.js';
import { isNotASecret } from '../src/privacy/placeholders.js';
import { redactText, SECRET_PATTERNS } from '../src/privacy/redact.js';
import { CORPUS, FIXTURES, HAS_CORPUS } from './helpers.js';

// Test secrets are assembled at run time so that no scanner mistakes this file for a leak.
const fake = (...parts: string[]) => parts.join('');

describe('redactText', () => {
  it.each([
    ['anthropic-key', fake('key: sk-ant-', 'api03-', 'a'.repeat(40))],
    ['openai-key', fake('OPENAI=', 'sk-', 'proj-', 'b'.repeat(40))],
    ['aws-access-key', fake('id AKIA', 'IOSFODNN7EXAMPLE here')],
    ['github-token', fake('token ghp_', 'c'.repeat(36))],
    ['github-token', fake('github_pat_', '11AAAAAAA0', 'd'.repeat(40))],
    ['slack-token', fake('xoxb-', '123456789012-abcdefghij')],
    ['stripe-key', fake('sk_live_', 'e'.repeat(24))],
    ['stripe-key', fake('rk_live_', 'f'.repeat(24))],
    [
      'jwt',
      fake(
        'eyJhbGciOiJIUzI1NiJ9',
        '.eyJzdWIiOiIxMjM0NTY3ODkwIn0',
        '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      ),
    ],
    ['bearer-token', fake('Authorization: Bearer ', 'abcdef0123456789abcdef')],
    ['url-password', fake('postgres://admin:', 's3cretpass', '@db.example.com/app')],
    ['assignment', fake('export DB_PASSWORD=', 'hunter2hunter2')],
    ['assignment', fake('API_KEY: ', 'zz9plural-alpha')],
    ['assignment', fake('SECRET=', 'abcdefg8')],
    ['assignment', fake('{"password": "', 'correct-horse', '"}')],
    ['assignment', fake('my_DB_PASSWORD=', 'hunter2hunter2')],
    ['assignment', fake("my_db_password = '", 'hunter2hunter2', "'")],
    ['assignment', fake('"smtpPassword": "', 'correct-horse', '"')],
    [
      'private-key',
      fake('-----BEGIN RSA PRIVATE KEY-----\nMIIEow', 'IBAAKCAQEA\n-----END RSA PRIVATE KEY-----'),
    ],
  ])('redacts a %s', (kind, text) => {
    const result = redactText(text);
    expect(result.count).toBeGreaterThanOrEqual(1);
    expect(result.text).toContain(`[REDACTED:${kind}]`);
  });

  it('keeps the surrounding text and the variable name', () => {
    expect(redactText(fake('run with TOKEN=', 'abc123xyz789 now')).text).toBe(
      'run with TOKEN=[REDACTED:assignment] now',
    );
    expect(redactText(fake('https://bob:', 'pa55word', '@example.com/x')).text).toBe(
      'https://bob:[REDACTED:url-password]@example.com/x',
    );
  });

  it('collects the secrets it replaced, so that copies of one secret count once', () => {
    const found = new Set<string>();
    const key = fake('sk-ant-', 'api03-', 'q'.repeat(40));
    expect(redactText(`first ${key} then ${key}`, found).count).toBe(2);
    expect(redactText(fake('DB_PASSWORD=', 'hunter2hunter2 and ', key), found).count).toBe(2);
    expect([...found].sort()).toEqual(['hunter2hunter2', key].sort());
  });

  it.each([
    'toolu_01ABCDEFGHIJKLMNOPQRSTUV',
    'msg_01XYZabcdefghijklmnopqrs',
    '4e27c414-a885-46a0-b5c8-d58e1417377d',
    '"input_tokens": 123456',
    'const token = getToken();',
    'password: string',
    'API_KEY=$' + '{API_KEY}',
    'TOKEN=<your token>',
    'Ask for a task-based approach',
    'https://example.com/path?q=1',
  ])('leaves %j alone', (text) => {
    expect(redactText(text)).toEqual({ text, count: 0 });
  });
});

/** What `redactText` does, the slow way: every pattern over the whole text, without hints or parts. */
function reference(text: string): { text: string; count: number; values: string[] } {
  let count = 0;
  const values: string[] = [];
  let out = text;
  for (const { kind, pattern, valid } of SECRET_PATTERNS) {
    const whole = new RegExp(pattern.source, pattern.flags);
    out = out.replace(whole, (...args: unknown[]) => {
      const match = args[0] as string;
      const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
      const secret =
        typeof groups === 'object' && groups !== null
          ? (groups.secret ?? groups.q1 ?? groups.q2 ?? groups.bare)
          : undefined;
      if (secret === undefined) {
        if (valid && !valid(match)) return match;
        count++;
        values.push(match);
        return `[REDACTED:${kind}]`;
      }
      if (isNotASecret(secret, true) || (valid && !valid(secret))) return match;
      count++;
      values.push(secret);
      const at = match.lastIndexOf(secret);
      return `${match.slice(0, at)}[REDACTED:${kind}]${match.slice(at + secret.length)}`;
    });
  }
  return { text: out, count, values };
}

/**
 * Checks `redactText` against the slow way: it replaces every secret the slow way finds (gitleaks' rules, the
 * preset and escapes may find more).
 */
function expectAtLeastReference(text: string): number {
  const expected = reference(text);
  const actual = redactText(text);
  const leftOver = expected.values.filter(
    (value) => actual.text.includes(value) && !expected.text.includes(value),
  );
  expect(leftOver, text).toEqual([]);
  expect(actual.count, text).toBeGreaterThanOrEqual(expected.count);
  return expected.count;
}

/** Every string value in the JSONL files under a folder. */
function stringsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') out.push(value);
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  const visit = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) visit(child);
      else if (name.endsWith('.jsonl'))
        for (const line of readFileSync(child, 'utf8').split('\n')) {
          try {
            walk(JSON.parse(line));
          } catch {
            out.push(line);
          }
        }
    }
  };
  visit(dir);
  return out;
}

describe('redactText finds what every pattern finds over the whole text', () => {
  const secrets = [
    fake('sk-ant-', 'api03-', 'a'.repeat(40)),
    fake('sk-', 'proj-', 'b'.repeat(40)),
    fake('sk_live_', 'e'.repeat(24)),
    fake('rk_test_', 'e'.repeat(24)),
    fake('AKIA', 'IOSFODNN7EXAMPLE'),
    fake('ghp_', 'c'.repeat(36)),
    fake('gho_', 'c'.repeat(36)),
    fake('github_pat_', '11AAAAAAA0', 'd'.repeat(30)),
    fake('xoxb-', '123456789012-abcdefghij'),
    fake('AIza', 'B'.repeat(35)),
    fake('eyJhbGciOiJIUzI1NiJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.dozjgNryP4J3jVmNHl0w5N'),
    fake('Bearer\n  ', 'abcdef0123456789abcdef'),
    fake('Token ', 'abcdef0123456789abcdef'),
    fake('HTTPS://admin:', 's3cretpass', '@db.example.com/app'),
    fake('git+ssh://u:', 'pw123456', '@host'),
    fake('my_DB_PASSWORD = "', 'hunter2hunter2', '"'),
    fake('xAPI_KEY=', 'zz9plural-alpha'),
    fake('myTOKEN=', 'abcdefgh'),
    fake("{'Client_Secret': '", 'correct-horse', "'}"),
    fake('PassWord \t= "', 'correct-horse', '"'),
    fake('"api_key":\t\'', 'zz9plural-alpha', "'"),
    fake('refresh_TOKEN="', 'abc123xyz789', '", auth_token: \'', 'def456uvw000', "'"),
    fake('passwd=', "'x'", ' secret: "', '$', '{ENV_VALUE}', '" password:"', 'p4ssw0rd!', '"'),
    fake('-----BEGIN EC PRIVATE KEY-----\nMHc', 'CAQEE\n-----END EC PRIVATE KEY-----'),
  ];
  // Past 4,000 characters redactText searches hint by hint rather than all at once: test both.
  const long = 'lorem ipsum dolor: sit = amet_consectetur\n'.repeat(100);
  const contexts = (secret: string, next: string) => [
    secret,
    `before ${secret} after`,
    `line one\n${secret}\nline three`,
    `"${secret}"`,
    `'${secret}'\n\`${secret}\``,
    `\t${secret},${secret};${secret}`,
    `word${secret}word`,
    `${secret}${secret}`,
    `${secret}${next}`,
    `${secret}\n${next} ${secret}`,
    `${secret}\r\n${secret.toLowerCase()}\u00a0${secret.toUpperCase()}`,
    `→ ${secret} ✓\u2028${secret}😀`,
    `${long}${secret}`,
    `${secret}${long}`,
    `${long}"${secret}"\n${long}${next}`,
    // Keywords of the pre-filter that ordinary text holds, around the secret.
    `input_tokens: 12 token task-list https://a.b/c ${secret} --pass ok Secret: the password is ${next}`,
  ];

  it('on planted secrets in many surroundings', () => {
    for (const [i, secret] of secrets.entries()) {
      const next = secrets[(i + 1) % secrets.length] ?? '';
      let found = 0;
      for (const text of contexts(secret, next)) found += expectAtLeastReference(text);
      expect(found, secret).toBeGreaterThan(0);
    }
  });

  it.each([
    '',
    'k-',
    'sk-',
    ':"',
    "= '",
    '_',
    'ghp_',
    'github_pat_',
    'yJ',
    'Bearer',
    '-----BEGIN ',
    'password:"',
    fake('PassWord = "', 'abcdefgh'),
    fake('x="', 'abcdefgh"\n:"'),
  ])('on hints at the edges of %j', (text) => {
    for (const around of [text, `${text}${text}`, ` ${text}\n${text}`]) expectAtLeastReference(around);
  });

  it.each([
    ['fixtures', FIXTURES, true],
    ['corpus', CORPUS, HAS_CORPUS],
  ] as const)('on every string of the %s', (_name, dir, present) => {
    if (!present) return;
    const strings = stringsUnder(dir);
    expect(strings.length).toBeGreaterThan(100);
    for (const text of strings) expectAtLeastReference(text);
  });
});

describe('shortenHome', () => {
  it.each([
    ['/home/alice/project/file.ts', '~/project/file.ts'],
    ['cd /Users/bob/work && ls', 'cd ~/work && ls'],
    ['C:\\Users\\carol\\repo', '~\\repo'],
    ['-home-alice-projects-app', '~-projects-app'],
    ['/home/alice', '~'],
    ['file:///Users/dain/workspace/app', 'file://~/workspace/app'],
  ])('%s → %s', (input, output) => {
    expect(shortenHome(input).text).toBe(output);
  });

  it('leaves other paths alone', () => {
    expect(shortenHome('/usr/home/x /opt/Users/y')).toEqual({ text: '/usr/home/x /opt/Users/y', count: 0 });
  });

  it('rewrites every string of a value', () => {
    const value = { cwd: '/home/alice/app', files: ['/home/alice/app/a.ts'] };
    const result = shortenHomePaths(value);
    expect(result.count).toBe(2);
    expect(result.value).toEqual({ cwd: '~/app', files: ['~/app/a.ts'] });
    expect(value).toEqual({ cwd: '/home/alice/app', files: ['/home/alice/app/a.ts'] });
  });
});
