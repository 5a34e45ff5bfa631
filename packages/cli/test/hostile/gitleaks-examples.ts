/**
 * One example secret for each of gitleaks' rules, made from the rule's own expression (`GitleaksRule.regex`):
 * every character class gives varied characters (so that entropy thresholds pass), every quantifier its least
 * count that says something. An example is kept only when the rule itself finds it, as gitleaks would; the
 * value is what the rule reports as the secret, which no published file may hold.
 */

import { type AST, RegExpParser } from '@eslint-community/regexpp';
import {
  allows,
  compileAllowlist,
  type GitleaksRule,
  shannonEntropy,
} from '../../src/privacy/gitleaks-rule.js';
import { GITLEAKS_ALLOWLIST, GITLEAKS_RULES } from '../../src/privacy/gitleaks-rules.js';

/** An example: the text to plant and the secret in it. */
export interface GitleaksExample {
  id: string;
  text: string;
  value: string;
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const CLASSES: Record<string, string[]> = {
  digit: [...'0123456789'],
  word: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'],
  space: [' '],
};

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The characters a class element admits. */
function admitted(node: AST.CharacterClass | AST.CharacterSet | AST.Character, choice = 0): string[] {
  if (node.type === 'Character') return [String.fromCodePoint(node.value)];
  if (node.type === 'CharacterSet') {
    // `hooks.slack.com` is written with `.` for `\.`: a first try says `.`.
    if (node.kind === 'any') return choice % 2 === 0 ? ['.'] : CLASSES.word!;
    const base = CLASSES[node.kind as 'digit' | 'word' | 'space'] ?? CLASSES.word!;
    return node.negate ? PRINTABLE.filter((c) => !base.includes(c) && c !== ' ') : base;
  }
  const out: string[] = [];
  for (const element of node.elements) {
    if (element.type === 'CharacterClassRange')
      for (let c = element.min.value; c <= element.max.value && c < 128; c++)
        out.push(String.fromCharCode(c));
    else if (element.type === 'Character' || element.type === 'CharacterSet') out.push(...admitted(element));
  }
  const unique = [...new Set(out)];
  // Letters and digits first: a value of them passes more rules' edges than punctuation does.
  return node.negate ? PRINTABLE.filter((c) => !unique.includes(c) && /[\w]/.test(c)) : unique;
}

/** Text matching a node; `choice` picks among alternatives. */
function sample(node: AST.Node, next: () => number, choice: number): string {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup': {
      const alternatives = node.alternatives;
      const pick = alternatives[node.type === 'Pattern' ? 0 : choice % alternatives.length]!;
      return sample(pick, next, choice);
    }
    case 'Alternative':
      return node.elements.map((e) => sample(e, next, choice)).join('');
    case 'Quantifier': {
      const count = node.min > 0 ? node.min : node.max === Infinity ? 0 : Math.min(node.max, 0);
      let out = '';
      for (let i = 0; i < count; i++) out += sample(node.element, next, choice);
      return out;
    }
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet': {
      const chars = admitted(node as AST.Character, choice);
      const preferred = chars.length === 1 ? chars : chars.filter((c) => /[A-Za-z0-9]/.test(c));
      const from = preferred.length > 0 ? preferred : chars;
      return from[Math.floor(next() * from.length)] ?? '';
    }
    default:
      return ''; // assertions, back-references
  }
}

/** The secret a rule reports for a match, as gitleaks picks it. */
function secretOf(rule: GitleaksRule, match: RegExpExecArray): string {
  if (rule.group !== undefined) return match[rule.group] ?? '';
  for (let i = 1; i < match.length; i++) if (match[i]) return match[i]!;
  return match[0];
}

/** Whether gitleaks reports a secret: above the rule's entropy, in none of its allowlists. */
function isSecret(rule: GitleaksRule, secret: string, match: string): boolean {
  if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) return false;
  const candidate = { secret, match, line: match };
  return ![GITLEAKS_ALLOWLIST, ...(rule.allow ?? [])].some((list) =>
    allows(compileAllowlist(list), candidate),
  );
}

/**
 * An example for each rule that one can be made for, with `seed` in its randomness (distinct values per set).
 *
 * @param isFound Whether the redaction under test finds the value in the text (examples it misses are bugs of
 *   the example, not of the redaction, only when the rule's own expression does not match them either).
 */
export function gitleaksExamples(seed = 1): GitleaksExample[] {
  const out: GitleaksExample[] = [];
  for (const [index, rule] of GITLEAKS_RULES.entries()) {
    const pattern = new RegExpParser().parsePattern(rule.regex);
    for (let attempt = 0; attempt < 12; attempt++) {
      const next = random(seed * 7919 + index * 104729 + attempt);
      const made = sample(pattern, next, attempt % 4);
      // gitleaks runs a rule on a text that holds one of its keywords: one is written before the example if it
      // holds none.
      const lower = made.toLowerCase();
      const text = rule.keywords.some((k) => lower.includes(k)) ? made : `${rule.keywords[0]} ${made}`;
      const match = new RegExp(rule.regex).exec(` ${text} `);
      const value = match ? secretOf(rule, match) : '';
      if (value.length < 8 || /[\s"'`]/.test(value) || !isSecret(rule, value, match?.[0] ?? '')) continue;
      out.push({ id: rule.id, text, value });
      break;
    }
  }
  return out;
}
