import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the script is plain JavaScript
import { ADAPTER, derive } from '../../../../scripts/privacy/preset-shapes.mjs';
import { requiredLiterals } from '../../src/privacy/literals.js';
import { presetExpressions, presetRules } from '../../src/privacy/preset-rules.js';
import { PRESET_DERIVED, PRESET_SHAPES } from '../../src/privacy/preset-shapes.js';
import { redactText, SECRET_PATTERNS } from '../../src/privacy/redact.js';
import { PRESET_SHAPES as SHAPES } from './preset-shapes.js';

const GENERATED = new URL('../../src/privacy/preset-shapes.ts', import.meta.url);

describe("the preset's vendor shapes as cctrail's patterns (preset-shapes.ts)", () => {
  it('are what the script derives from the installed preset (else: node scripts/privacy/preset-shapes.mjs)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(derive(presetExpressions, requiredLiterals));
  });

  it("are the preset's own expressions, each with the keywords that select its rule", () => {
    const options = Object.fromEntries(
      Object.entries(ADAPTER as Record<string, { options?: object }>).map(([rule, a]) => [
        rule,
        a.options ?? {},
      ]),
    );
    const expressions = presetExpressions(options);
    let derived = 0;
    for (const [rule, patterns] of Object.entries(PRESET_SHAPES)) {
      const theirs = (expressions[rule] ?? []).map(String);
      for (const { pattern, keywords } of patterns) {
        derived++;
        // The secret's group named (`aws`): the same expression otherwise.
        expect(theirs, rule).toContain(String(pattern).replace('(?<secret>', '('));
        expect(keywords.length, rule).toBeGreaterThan(0);
      }
    }
    expect(derived).toBeGreaterThanOrEqual(15);
    // Every derived pattern is one of the rules redaction runs.
    for (const patterns of Object.values(PRESET_SHAPES))
      for (const pattern of patterns) expect(SECRET_PATTERNS).toContain(pattern);
  });

  it("leave no rule of the preset's both as a pattern and as a handler: a string is read once for each", () => {
    const kinds = presetRules().map((rule) => rule.kind);
    for (const rule of PRESET_DERIVED) expect(kinds).toContain(rule);
    expect([...PRESET_DERIVED]).toEqual(Object.keys(PRESET_SHAPES).filter((rule) => rule !== 'aws'));
  });

  it("keep the checks the preset's rules make in code: a SendGrid key is 69 characters long", () => {
    const sendgrid = (tail: string) => ['SG.', 'Ab3dEf6hIj9kLm2nOp5qRs', '.', tail].join('');
    const whole = sendgrid('Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9');
    expect(whole).toHaveLength(69);
    expect(redactText(`key ${whole} here`).text).toBe('key [REDACTED:sendgrid-key] here');
    // The preset's expression matches this one; its rule's code does not take it.
    const short = sendgrid('Ab3dEf6hIj9kLm2nOp5q');
    expect(redactText(`key ${short} here`)).toEqual({ text: `key ${short} here`, count: 0 });
  });

  it("find the preset's shapes under cctrail's names", () => {
    const named = SHAPES.map((text) => redactText(text).text.match(/\[REDACTED:([a-z0-9-]+)\]/)?.[1]);
    expect(named).toEqual(
      expect.arrayContaining(['slack-token', 'slack-webhook', 'github-token', 'gitlab-token', 'npm-token']),
    );
    expect(named).toEqual(expect.arrayContaining(['private-key', 'aws-access-key']));
  });
});
