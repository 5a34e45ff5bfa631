import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { selectRules } from '../../src/privacy/prefilter.js';
import { PRESET_KEYWORDS } from '../../src/privacy/preset-keywords.js';
import { presetRules, presetSecrets, readPresetKeywords } from '../../src/privacy/preset-rules.js';
import { plantedSecrets } from './planted-secrets.js';
import { PRESET_SHAPES as SHAPES } from './preset-shapes.js';

/** What the preset finds in a text when only the rules its keywords select run. */
const selected = (text: string) => presetSecrets(text, selectRules(text)?.preset ?? []);

describe("the preset's keywords: the literals, read from its rules' expressions, that select its rules", () => {
  it('are the table generated from the installed preset (else: node scripts/privacy/preset-keywords.mjs)', () => {
    expect(readPresetKeywords()).toEqual(PRESET_KEYWORDS);
  });

  it('covers every rule of the preset (a rule without keywords would run on every string)', () => {
    const ids = (rules as unknown as { meta: { id: string } }[])
      .map((rule) => rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, ''))
      .filter((id) => id !== 'filter-comments');
    expect(presetRules().map((rule) => rule.kind)).toEqual(ids);
    expect(
      presetRules()
        .filter((rule) => rule.keywords === null)
        .map((rule) => rule.kind),
    ).toEqual([]);
    // `gcp` reads `.json` and `.p12` files only: on a transcript's strings it matches no expression.
    expect(
      presetRules()
        .filter((rule) => rule.keywords?.length === 0)
        .map((rule) => rule.kind),
    ).toEqual(['gcp']);
  });

  it('are literals of the rules, at least three characters long', () => {
    const byKind = new Map(presetRules().map((rule) => [rule.kind, rule.keywords]));
    expect(byKind.get('github')?.flatMap((k) => k.words)).toEqual(
      expect.arrayContaining(['ghp_', 'gho_', 'github_pat_']),
    );
    expect(byKind.get('database-connection-string')).toContainEqual({
      words: ['postgres://', 'postgresql://'],
      anyCase: true,
    });
    for (const rule of presetRules())
      for (const { words } of rule.keywords ?? [])
        for (const word of words) expect(word.length).toBeGreaterThan(2);
  });

  it('lose nothing: the rules chosen by keyword find what every rule finds', () => {
    const texts = [...SHAPES, ...plantedSecrets(3).map((s) => s.text), SHAPES.join('\n some prose \n')];
    let found = 0;
    for (const text of texts) {
      const all = presetSecrets(text);
      found += all.length;
      expect(selected(text), text).toEqual(all);
      expect(selected(text.toUpperCase()), text).toEqual(presetSecrets(text.toUpperCase()));
    }
    expect(found).toBeGreaterThan(SHAPES.length);
  });

  it('run no rule on a string without any keyword', () => {
    expect(selectRules('plain prose with no key, a path /home/dev/x.ts and an id toolu_01ABC')).toBeNull();
  });
});
