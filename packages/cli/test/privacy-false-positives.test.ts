import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe.skipIf(!HAS_CORPUS)('the values redacted on the shared corpus', () => {
  it('are listed by rule, and none is a placeholder or an ordinary word', () => {
    const found = new Map<string, string>();
    for (const text of stringsUnder(CORPUS)) redactText(text, found);
    const byRule: Record<string, string[]> = {};
    for (const [value, kind] of found) byRule[kind] = [...(byRule[kind] ?? []), value];
    for (const values of Object.values(byRule)) values.sort();
    for (const value of found.keys()) {
      expect(value).not.toMatch(/^[a-z]+$|\{\{|\$\{|^<.*>$|^x+$|changeme|example|placeholder/i);
      expect(value.length).toBeGreaterThanOrEqual(6);
    }
    // The shared corpus holds no credential: anything listed here is a false positive to look at.
    expect(byRule).toMatchInlineSnapshot(`{}`);
  });
});
