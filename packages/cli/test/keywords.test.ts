import { describe, expect, it } from 'vitest';
import { KeywordScan } from '../src/privacy/keyword-scan.js';
import { requiredLiterals } from '../src/privacy/literals.js';
import { selectRules } from '../src/privacy/prefilter.js';
import { presetRules } from '../src/privacy/preset-rules.js';
import { SECRET_PATTERNS } from '../src/privacy/redact.js';
import { keywordsFromStart } from './keyword-reference.js';

/** Every keyword a scan finds in a text, as `word@start`, in the order they end. */
function found(scan: KeywordScan, words: readonly string[], text: string): string[] {
  const hits: number[] = [];
  const count = scan.scan(text, hits);
  const out: string[] = [];
  for (let h = 0; h < hits.length; h += 2) out.push(`${words[hits[h]!]}@${hits[h + 1]}`);
  expect(out.length).toBe(count);
  return out;
}

describe('KeywordScan', () => {
  const words = ['he', 'she', 'hers', 'his', 'Token', 'token'];
  const scan = new KeywordScan(words.map((word, i) => ({ word, anyCase: i === 5 })));

  it('finds every keyword, overlapping ones too', () => {
    expect(found(scan, words, 'ushers')).toEqual(['she@1', 'he@2', 'hers@2']);
    expect(found(scan, words, 'hishe')).toEqual(['his@0', 'she@2', 'he@3']);
  });

  it('reads keywords of exact case as written, the others in any letter case', () => {
    expect(found(scan, words, 'a Token, a TOKEN, a token')).toEqual([
      'Token@2',
      'token@2',
      'token@11',
      'token@20',
    ]);
    expect(found(scan, words, 'USHERS')).toEqual([]);
  });

  it('passes over text outside ASCII, and keywords across it are not found', () => {
    expect(found(scan, words, 'é😀she\u0130tok\u00e9en')).toEqual(['she@3', 'he@4']);
    expect(scan.scan('', [])).toBe(0);
  });

  it('finds in a long text what a reading from its start finds, keywords across its middle included', () => {
    // What a reading character by character finds (`keywordsFromStart`).
    const expected = (text: string) => keywordsFromStart(words, (i) => i === 5, text);
    for (const length of [256, 257, 300, 1001]) {
      const half = length >> 1;
      for (let at = half - 6; at <= half + 2; at++) {
        const chars = Array.from({ length }, () => '.');
        const put = (word: string, where: number) => chars.splice(where, word.length, ...word);
        put('Token', 0);
        put('ushers', at);
        put('TOKEN', length - 5);
        const text = chars.join('');
        expect(text).toHaveLength(length);
        expect(found(scan, words, text)).toEqual(expected(text));
      }
    }
  });

  it('refuses a keyword outside ASCII', () => {
    expect(() => new KeywordScan([{ word: 'clé', anyCase: false }])).toThrow(RangeError);
  });
});

describe('requiredLiterals: strings one of which every match contains', () => {
  it.each([
    [/\b(?:ghp|gho)_[A-Za-z0-9]{36}/g, ['ghp_', 'gho_'], false],
    [/(?<!\p{L})dckr_pat_[a-zA-Z0-9_-]{27}(?![a-zA-Z0-9_-])/gu, ['dckr_pat_'], false],
    [/postgres(?:ql)?:\/\/(?<user>[^:]+)/gi, ['postgres://', 'postgresql://'], true],
    [/[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}/g, ['T3BlbkFJ'], false],
    [/sk-ant-api0\d-[A-Za-z0-9_-]{90,128}AA/g, ['sk-ant-api0'], false],
    [/(?:SECRET|secret)_?KEY/g, ['SECRETKEY', 'SECRET_KEY', 'secretKEY', 'secret_KEY'], false],
    [
      /(?:AWS|aws)?_?(?:SECRET|secret)_?(?:ACCESS|access)_?KEY=/g,
      ['ACCESSKEY=', 'ACCESS_KEY=', 'accessKEY=', 'access_KEY='],
      false,
    ],
    [/(?:xoxb|xoxp)-(?:\d-)?[a-z]+/g, ['xoxb-', 'xoxp-'], false],
  ])('%s', (expression, words, anyCase) => {
    const literals = requiredLiterals(expression);
    expect(literals?.anyCase).toBe(anyCase);
    expect([...(literals?.words ?? [])].sort()).toEqual([...words].sort());
  });

  it.each([
    /[a-z]+@[a-z]+/g, // no literal at all
    /\d{3}-x/g, // too short
    /(?:abc|\d+)def?/g, // one alternative without a literal, and `de` is too short
    /password/giu, // `u` with `i`: `ſ` is an `s` there, which a keyword does not find
  ])('none for %s', (expression) => {
    expect(requiredLiterals(expression)).toBeNull();
  });
});

describe("the pre-filter: one scan selects each string's rules", () => {
  it.each([
    'Count the tokens: input_tokens and output_tokens are summed per API response.',
    'The token limit was hit; pass --verbose to see why (see the task-list and risk-assessment).',
    '"usage": {"input_tokens": 1234, "cache_read_input_tokens": 99}',
    'a secret of good prose is to never pass on the keys you hold',
    'see https://example.com/docs and http://localhost:3000/',
  ])('selects none of cctrail’s rules in ordinary text: %j', (text) => {
    expect([...(selectRules(text)?.rules.keys() ?? [])]).toEqual([]);
  });

  it('selects a rule only where its keyword passes its second check', () => {
    const selected = (text: string) =>
      [...(selectRules(text)?.rules.keys() ?? [])].map((i) => SECRET_PATTERNS[i]?.kind);
    expect(selected('token: abcdefgh')).toContain('assignment');
    expect(selected(`x sk-${'a'.repeat(20)}`)).toEqual(['openai-key']);
    expect(selected(`task-${'a'.repeat(20)}`)).toEqual([]);
    expect(selected('postgres://app:pw@db/x')).toEqual(['url-password']);
  });

  it("selects the preset's rule of URLs with credentials only where `user:password@` follows the scheme", () => {
    const rules = presetRules();
    const basicauth = rules.findIndex(({ kind }) => kind === 'basicauth');
    expect(rules[basicauth]?.next).toBeDefined();
    const preset = (text: string) => selectRules(text)?.preset ?? [];
    expect(preset('see https://example.com/docs and http://localhost:3000/')).not.toContain(basicauth);
    expect(preset('see https://example.com/a?b=c:d@e')).not.toContain(basicauth);
    expect(preset('git clone https://deploy:hunter2pass@example.com/x.git')).toContain(basicauth);
    expect(preset('a mirror at ftp://anon:guest@files.example.org')).toContain(basicauth);
  });
});
