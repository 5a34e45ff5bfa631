import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isNotASecret } from '../src/privacy/placeholders.js';
import { redactText } from '../src/privacy/redact.js';
import { CORPUS, HAS_CORPUS } from './helpers.js';

// Placeholders, template variables and ordinary words next to a secret's name: none is a secret (#31 found
// these redacted on a real archive). Written in parts, as the test secrets are.
const j = (...parts: string[]) => parts.join('');
const NOT_SECRETS = [
  j('password: "{{ .Env.MACOS_SIGN', '_PASSWORD }}"'),
  j('MACOS_SIGN_PASSWORD={{.Env.MACOS_SIGN', '_PASSWORD}}'),
  j('client_secret: "{{ client', '_secret }}"'),
  j('API_KEY=$', '{API_KEY}'),
  j('TOKEN=$', 'GITHUB_TOKEN'),
  j('GITHUB_TOKEN: $', '{{ secrets.GITHUB_TOKEN }}'),
  j('password: ', 'disabled'),
  j('password_auth: ', 'disabled'),
  j('"password": "', 'disabled"'),
  j('POSTHOG_KEY=phc_', 'development_key'),
  j('api_key: "phc_', 'development_key"'),
  j('token: <', 'token>'),
  j('password=', 'changeme'),
  j('PASSWORD=', 'changeme123'),
  j('secret: "%(', 'secret)s"'),
  j('password: ', 'xxxxxxxx'),
  j('DB_PASSWORD=', '********'),
  j('api_key = "', 'your-api-key-here"'),
  j('--password ', 'prompt'),
  j('--token ', 'stdin'),
  j('password: ', 'keychain'),
  j('SECRET_KEY_BASE=', 'placeholder'),
  j('export OPENAI_API_KEY=', 'sk-...'),
  j('AWS_SECRET_ACCESS_KEY=', 'REDACTED'),
  j('Authorization: Bearer ', '$', '{TOKEN}'),
  j('machine ', 'github.com login bot password ', '$', 'GH_TOKEN'),
  'the key is in the monkey; turkey-based keying',
  'Cookie: none set',
  'Set the task-list and ask-for-help flags',
  'mysql -u root -p app',
  'docker login -u bot --password-stdin registry.example.com',
  'redis-cli -a "$REDIS_PASSWORD" ping',
  j('private key: ', '0x', '0'.repeat(64)),
  'key-value store, key-based auth, -us-east-1 region',
];

describe('redaction keeps what is not a secret', () => {
  it.each(NOT_SECRETS)('%j', (text) => {
    expect(redactText(text)).toEqual({ text, count: 0 });
  });
});

/** Every string value and key of the JSONL files under a folder. */
function stringsUnder(dir: string): string[] {
  const out: string[] = [];
  const stack: unknown[] = [];
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const path = join(dir, name);
    if (!name.endsWith('.jsonl') || !statSync(path).isFile()) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        stack.push(JSON.parse(line));
      } catch {
        out.push(line);
      }
      while (stack.length > 0) {
        const value = stack.pop();
        if (typeof value === 'string') out.push(value);
        else if (value !== null && typeof value === 'object')
          for (const [key, item] of Object.entries(value)) stack.push(key, item);
      }
    }
  }
  return out;
}

/** The values redacted in every string under a folder, by the rule that found them (each list sorted). */
function redactedByRule(dir: string): Record<string, string[]> {
  const found = new Map<string, string>();
  for (const text of stringsUnder(dir)) redactText(text, found);
  const byRule: Record<string, string[]> = {};
  for (const [value, kind] of found) byRule[kind] = [...(byRule[kind] ?? []), value];
  for (const values of Object.values(byRule)) values.sort();
  return byRule;
}

/** Checks that no value redacted is a placeholder, an ordinary word or too short to be a credential. */
function expectNoneOrdinary(byRule: Record<string, string[]>): void {
  for (const [rule, values] of Object.entries(byRule))
    for (const value of values) {
      const said = `${rule}: ${value}`;
      // What cctrail's own list says is never a secret, even next to a secret's name.
      expect(isNotASecret(value, true), said).toBe(false);
      expect(value, said).not.toMatch(/^[a-z]+$|\{\{|\$\{|^<.*>$|^x+$|changeme|example|placeholder/i);
      expect(value.length, said).toBeGreaterThanOrEqual(6);
    }
}

describe.skipIf(!HAS_CORPUS)('the values redacted on the shared corpus', () => {
  it('are listed by rule, and none is a placeholder or an ordinary word', () => {
    const byRule = redactedByRule(CORPUS);
    expectNoneOrdinary(byRule);
    // The shared corpus holds no credential: anything listed here is a false positive to look at.
    expect(byRule).toMatchInlineSnapshot(`{}`);
  });
});

describe('the values redacted on a calibrated archive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cctrail-calibrated-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 0);

  // Planted in one of its transcripts beside the placeholders above: what a real archive has of both.
  const PLANTED = [
    j('export GITHUB_TOKEN=ghp_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d'),
    j('aws_access_key_id = AKIA', 'QW7ERT2YUI5OPAS3'),
    j('DB_PASSWORD=', 'Tr0ub4dor-3x'),
  ];

  it('are listed by rule, and none is a placeholder or an ordinary word', async () => {
    // As the benchmarks generate it (seed 1), at a small scale: 24 sessions, 12 MB.
    // @ts-expect-error: the benchmark's generator is plain JavaScript
    const { generateCorpus } = await import('../../../scripts/bench/generate.mjs');
    await generateCorpus(dir, { sessions: 24, totalMb: 12 });
    const first = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()[0]!;
    for (const text of [...NOT_SECRETS, ...PLANTED])
      appendFileSync(
        join(dir, first),
        `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`,
      );
    const byRule = redactedByRule(dir);
    expectNoneOrdinary(byRule);
    expect(byRule).toMatchInlineSnapshot(`
      {
        "assignment": [
          "Tr0ub4dor-3x",
        ],
        "aws-access-key": [
          "AKIAQW7ERT2YUI5OPAS3",
        ],
        "github-token": [
          "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d",
        ],
      }
    `);
  }, 120_000);
});
