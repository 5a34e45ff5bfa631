import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/privacy/redact.js';
import { NO_PRIVACY, privacyTransform, transformEach } from '../src/privacy/transform.js';

// Test secrets are written in parts, so that no scanner of this repository takes them for real ones.
const fake = (...parts: string[]) => parts.join('');

describe('redactSecrets', () => {
  it('walks every string of a nested value and counts, leaving the value as it was', () => {
    const session = {
      content: [{ type: 'text', text: fake('sk-ant-', 'x'.repeat(30)) }],
      tool: { input: { command: fake('curl -H "Authorization: Bearer ', 'q7'.repeat(10), '"') } },
      list: [fake('AKIA', 'ABCDEFGHIJKLMNOP')],
      image: { type: 'image', data: fake('AKIA', 'ABCDEFGHIJKLMNOP') },
      clean: { text: 'nothing to hide', items: ['a', 'b'] },
      n: 3,
    };
    const before = JSON.stringify(session);
    const { value, count } = redactSecrets(session);
    expect(count).toBe(3);
    expect(JSON.stringify(value)).not.toMatch(/sk-ant-x|Bearer q7|"AKIAABCDEFGHIJKLMNOP"\]/);
    // base64 image payloads are not text
    expect(value.image.data).toBe(fake('AKIA', 'ABCDEFGHIJKLMNOP'));
    // The value given is left as it was; what held no secret is shared, not copied.
    expect(JSON.stringify(session)).toBe(before);
    expect(value).not.toBe(session);
    expect(value.clean).toBe(session.clean);
    expect(value.image).toBe(session.image);
    expect(value.tool).not.toBe(session.tool);
  });

  it('returns the same value when it holds no secret', () => {
    const session = { entries: [{ text: 'hello', input: { command: 'ls -la' } }], n: 1 };
    const result = redactSecrets(session);
    expect(result.value).toBe(session);
    expect(result.count).toBe(0);
  });

  it('redacts object keys in their order, an own `__proto__` key kept as a key', () => {
    const key = fake('ghp_', 'k'.repeat(36));
    const record = JSON.parse(`{"a":1,"${key}":2,"__proto__":{"x":"${key}"},"z":3}`) as Record<
      string,
      unknown
    >;
    const { value, count } = redactSecrets(record);
    expect(Object.keys(value)).toEqual(['a', '[REDACTED:github-token]', '__proto__', 'z']);
    expect(count).toBe(2);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).not.toContain(key);
  });

  it('maps a value the same at every depth, an own `__proto__` value and renamed keys included', () => {
    const key = fake('ghp_', 'k'.repeat(36));
    const part = () =>
      JSON.parse(`{"__proto__":{"x":"${key}"},"list":["${key}",1],"b":{"${key}":"${key}"},"b2":{"c":1}}`);
    const given = part();
    const shallow = redactSecrets(given);
    let nested: Record<string, unknown> = part();
    for (let i = 0; i < 100; i++) nested = { next: nested, at: i };
    let deep = redactSecrets(nested);
    expect(deep.count).toBe(shallow.count);
    expect(shallow.count).toBe(4);
    for (let i = 0; i < 100; i++) deep = { value: deep.value.next as Record<string, unknown>, count: 0 };
    expect(JSON.stringify(deep.value)).toBe(JSON.stringify(shallow.value));
    expect(Object.hasOwn(shallow.value, '__proto__')).toBe(true);
    expect(shallow.value.b2).toBe(given.b2);
    expect(JSON.stringify(shallow.value)).not.toContain(key);
  });

  it('does not recurse on deep values', () => {
    let deep: Record<string, unknown> = { text: fake('ghp_', 'z'.repeat(36)) };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(redactSecrets(deep).count).toBe(1);
  });
  it('reads what an object holds where an earlier object of its shape held an image or nothing to redact', () => {
    const secret = fake('ghp_', 'k'.repeat(36));
    const transform = privacyTransform({ redact: true, shortHome: false });
    // The same string: an image's payload first (not text, so not read), then text at the same place.
    const entries = [
      { type: 'image', data: secret, note: 'plain' },
      { type: 'text', data: secret, note: 'plain' },
      { type: 'text', data: 'plain', note: secret },
      { type: 'text', data: 'plain', [secret]: 'plain' },
    ];
    const out = transform(entries);
    expect(out[0]).toBe(entries[0]);
    expect(out[1]).toEqual({ type: 'text', data: '[REDACTED:github-token]', note: 'plain' });
    expect(out[2]).toEqual({ type: 'text', data: 'plain', note: '[REDACTED:github-token]' });
    expect(out[3]).toEqual({ type: 'text', data: 'plain', '[REDACTED:github-token]': 'plain' });
    // The same transform again, what it left unchanged remembered: the same result.
    expect(transform(entries)).toEqual(out);
    expect(transform(entries.slice(1))).toEqual(out.slice(1));
    // Another transform of the same options, which shares what they left unchanged.
    expect(privacyTransform({ redact: true, shortHome: false })(entries)).toEqual(out);
  });

  it('remembers what a transform left unchanged for transforms of its options only', () => {
    const entries = [{ type: 'text', text: '/home/alice/project/notes.md' }];
    expect(privacyTransform({ redact: true, shortHome: false })(entries)).toBe(entries);
    expect(privacyTransform({ redact: true, shortHome: true })(entries)).toEqual([
      { type: 'text', text: '~/project/notes.md' },
    ]);
    expect(privacyTransform({ redact: false, shortHome: true })(entries)).toEqual([
      { type: 'text', text: '~/project/notes.md' },
    ]);
  });
});

describe('transformEach', () => {
  const session = () => ({
    title: fake('first prompt with ghp_', 'a'.repeat(36)),
    entries: [
      { uuid: 'a', content: [{ type: 'text', text: fake('key sk-ant-', 'x'.repeat(30)) }] },
      { uuid: 'b', content: [{ type: 'text', text: 'nothing to hide' }] },
      { uuid: 'd', content: [{ type: 'text', text: 'cd /home/dev/app' }] },
      {
        uuid: 'c',
        content: [{ type: 'tool_use', input: { command: fake('export T=ghp_', 'b'.repeat(36)) } }],
      },
    ],
    metadata: [{ note: fake('AKIA', 'ABCDEFGHIJKLMNOP') }],
    n: 3,
  });
  const privacy = { redact: true, shortHome: true };

  it('transforms a session as the transform does, handing each entry over once, as transformed', () => {
    const whole = { secrets: new Map<string, string>(), shortened: 0 };
    const expected = privacyTransform(privacy, whole)(session());
    const counts = { secrets: new Map<string, string>(), shortened: 0 };
    const given = session();
    const handed: unknown[] = [];
    const value = transformEach(given, privacyTransform(privacy, counts), (entry) => handed.push(entry));
    expect(value).toEqual(expected);
    // The same secrets, found in the same order (what the counts by rule are made of).
    expect([...counts.secrets]).toEqual([...whole.secrets]);
    expect(counts.shortened).toBe(whole.shortened);
    expect(counts.secrets.size).toBe(4);
    expect(counts.shortened).toBe(1);
    expect(handed).toHaveLength(4);
    for (const [i, entry] of handed.entries()) expect(entry).toBe(value.entries[i]);
    expect(JSON.stringify(handed)).not.toMatch(/sk-ant-x|ghp_/);
    // What held nothing to change is shared, not copied.
    expect(value.entries[1]).toBe(given.entries[1]);
    expect(value.entries[0]).not.toBe(given.entries[0]);
    expect(transformEach({ entries: [{ a: 'x' }] }, privacyTransform(privacy), () => {}).entries).toEqual([
      { a: 'x' },
    ]);
  });

  it('hands each entry over without privacy options too, and returns the session itself', () => {
    const given = session();
    const handed: unknown[] = [];
    expect(transformEach(given, privacyTransform(NO_PRIVACY), (entry) => handed.push(entry))).toBe(given);
    expect(handed).toEqual(given.entries);
    expect(handed[0]).toBe(given.entries[0]);
  });
});
