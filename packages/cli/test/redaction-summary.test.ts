import { describe, expect, it } from 'vitest';
import { redactedLine } from '../src/privacy/summary.js';
import { countByRule, type PrivacyCounts, privacyTransform } from '../src/privacy/transform.js';

describe('redactedLine', () => {
  it('counts the secrets by rule, the most first, then by name', () => {
    expect(redactedLine(12, { assignment: 5, 'aws-access-key': 7 })).toBe(
      '12 secrets redacted (7 aws-access-key, 5 assignment)',
    );
    expect(redactedLine(2, { b: 1, a: 1 })).toBe('2 secrets redacted (1 a, 1 b)');
    expect(redactedLine(1, { jwt: 1 })).toBe('1 secret redacted (1 jwt)');
    expect(redactedLine(0, {})).toBe('0 secrets redacted');
  });

  it('names eight rules at most, the others counted together', () => {
    const byRule = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`rule-${i + 10}`, 20 - i]));
    const line = redactedLine(165, byRule);
    expect(line).toBe(
      '165 secrets redacted (20 rule-10, 19 rule-11, 18 rule-12, 17 rule-13, 16 rule-14, 15 rule-15, 14 rule-16, 46 by 4 other rules)',
    );
  });
});

describe('countByRule', () => {
  it('counts each distinct secret once, under the rule that found it', () => {
    const secrets = new Map([
      ['AKIA1', 'aws-access-key'],
      ['AKIA2', 'aws-access-key'],
      ['hunter22', 'assignment'],
    ]);
    expect(countByRule(secrets)).toEqual({ 'aws-access-key': 2, assignment: 1 });
  });
});

describe('privacyTransform', () => {
  const filler = 'plain words of a long tool output, '.repeat(20);
  const key = ['ghp_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d'].join('');

  it('redacts every copy of a long string, and counts its secret once by rule', () => {
    const counts: PrivacyCounts = { secrets: new Map(), shortened: 0 };
    const transform = privacyTransform({ redact: true, shortHome: true }, counts);
    const secret = `${filler} export GITHUB_TOKEN=${key} in /home/alice/app`;
    const clean = `${filler} nothing here`;
    const session = { content: [secret, clean], toolUseResult: { stdout: secret, again: clean } };
    const out = transform(session);
    expect(JSON.stringify(out)).not.toContain(key);
    expect(out.content[0]).toBe(out.toolUseResult.stdout);
    expect(out.content[0]).toContain('[REDACTED:github-token]');
    expect(out.content[0]).toContain('~/app');
    expect(out.content[1]).toBe(clean);
    expect(countByRule(counts.secrets)).toEqual({ 'github-token': 1 });
    expect(counts.shortened).toBe(2);
    // A second session with the same transform: what was left unchanged is still unchanged, secrets still go.
    const next = transform({ a: clean, b: secret });
    expect(next.a).toBe(clean);
    expect(next.b).toBe(out.content[0]);
  });

  it('tells a remembered string from another of its length and edges, short or long', () => {
    const transform = privacyTransform({ redact: true, shortHome: false });
    for (const length of [101, 5000]) {
      // One length, the same first, middle and last characters: one string clean, the other with a secret.
      const made = (inside: string) => {
        const edges = (i: number) => (i === 0 ? '<' : i === length >> 1 ? '|' : i === length - 1 ? '>' : ' ');
        return Array.from({ length }, (_, i) =>
          i > 1 && i < 2 + inside.length ? inside[i - 2] : edges(i),
        ).join('');
      };
      const clean = made('');
      const secret = made(key);
      const out = transform({ a: clean, b: clean.split('').join(''), c: secret });
      expect(out.a).toBe(clean);
      expect(out.b).toBe(clean);
      expect(out.c).toBe(secret.replace(key, '[REDACTED:github-token]'));
    }
  });

  it('redacts a key that holds a secret in every object that has it, counted once', () => {
    const counts: PrivacyCounts = { secrets: new Map(), shortened: 0 };
    const transform = privacyTransform({ redact: true, shortHome: false }, counts);
    const name = `token=${key}`;
    const entries = Array.from({ length: 5 }, (_, i) => ({ type: 'text', [name]: i }));
    const out = transform({ entries });
    expect(JSON.stringify(out)).not.toContain(key);
    for (const [i, entry] of out.entries.entries())
      expect(entry).toEqual({ type: 'text', 'token=[REDACTED:github-token]': i });
    expect(countByRule(counts.secrets)).toEqual({ 'github-token': 1 });
  });

  it('finds a secret that terminal colour codes split, and keeps text without one as written', () => {
    const coloured = `export GITHUB_TOKEN=\u001b[1m${key.slice(0, 10)}\u001b[22m${key.slice(10)}`;
    const out = privacyTransform({ redact: true, shortHome: false })({
      a: coloured,
      b: '\u001b[31mred\u001b[0m',
    });
    expect(out.a).toBe('export GITHUB_TOKEN=[REDACTED:github-token]');
    expect(out.b).toBe('\u001b[31mred\u001b[0m');
  });

  it('keeps bidirectional control characters as written (the renderer shows them)', () => {
    const trojan = 'if (isAdmin) {\u202E } \u2066// not admin\u2069 {';
    const session = { text: trojan, [trojan]: 1 };
    expect(privacyTransform({ redact: true, shortHome: true })(session)).toBe(session);
  });

  it('returns what holds nothing to change as it is', () => {
    const session = { entries: [{ text: filler }, { text: filler }] };
    expect(privacyTransform({ redact: true, shortHome: true })(session)).toBe(session);
    expect(privacyTransform({ redact: false, shortHome: false })(session)).toBe(session);
  });
});
