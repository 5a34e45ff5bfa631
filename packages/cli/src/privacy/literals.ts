/**
 * The literals a regular expression cannot match without: for an expression, a few strings one of which every
 * match contains (Google's RE2 "prefilter" idea, in small). They make the keywords of secretlint's rules, which
 * are kept by that project as expressions, so that a new preset brings its own keywords.
 */

import { type AST, RegExpParser } from '@eslint-community/regexpp';

/** What a part of an expression can match, as sets of strings; `['']` says nothing. */
interface Facts {
  /** Every string the part matches, when they are few; else null. */
  exact: string[] | null;
  /** Strings one of which every match starts with. */
  prefix: string[];
  /** Strings one of which every match ends with. */
  suffix: string[];
  /** Strings one of which every match contains. */
  required: string[];
}

// More strings than this in a set are not worth a keyword each; a class of more characters ends a literal.
const MOST_STRINGS = 16;
const MOST_CLASS_CHARS = 4;
// Keywords shorter than this occur in ordinary text too often to select a rule.
const SHORTEST_KEYWORD = 3;

const NOTHING: Facts = { exact: null, prefix: [''], suffix: [''], required: [''] };
const EMPTY: Facts = exactly(['']);

function exactly(strings: string[]): Facts {
  return { exact: strings, prefix: strings, suffix: strings, required: strings };
}

/** Every concatenation of one string of `a` and one of `b`, or null when there would be too many. */
function product(a: readonly string[], b: readonly string[]): string[] | null {
  if (a.length * b.length > MOST_STRINGS) return null;
  return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
}

/** How good a set is as keywords: the length of its shortest string, then the fewer strings the better. */
function score(set: readonly string[]): number {
  return Math.min(...set.map((s) => s.length)) * 100 - set.length;
}

function best(...sets: (readonly string[])[]): string[] {
  let chosen: readonly string[] = [''];
  for (const set of sets) if (score(set) > score(chosen)) chosen = set;
  return [...chosen];
}

function union(sets: (readonly string[])[]): string[] {
  const all = [...new Set(sets.flat())];
  return all.length > MOST_STRINGS ? [''] : all;
}

/** Facts of `a` followed by `b`. */
function concat(a: Facts, b: Facts): Facts {
  const both = a.exact && b.exact ? product(a.exact, b.exact) : null;
  if (both) return exactly(both);
  const prefix = a.exact ? (product(a.exact, b.prefix) ?? a.exact) : a.prefix;
  const suffix = b.exact ? (product(a.suffix, b.exact) ?? b.exact) : b.suffix;
  const across = product(a.suffix, b.prefix) ?? [''];
  return { exact: null, prefix, suffix, required: best(a.required, b.required, across, prefix, suffix) };
}

function alternatives(list: readonly AST.Alternative[], fold: boolean): Facts {
  const facts = list.map((alternative) =>
    alternative.elements.reduce((sum, element) => concat(sum, factsOf(element, fold)), EMPTY),
  );
  if (facts.every((f) => f.exact !== null)) {
    const all = [...new Set(facts.flatMap((f) => f.exact ?? []))];
    if (all.length <= MOST_STRINGS) return exactly(all);
  }
  return {
    exact: null,
    prefix: union(facts.map((f) => f.prefix)),
    suffix: union(facts.map((f) => f.suffix)),
    required: union(facts.map((f) => f.required)),
  };
}

function characters(node: AST.CharacterClass, fold: boolean): Facts {
  if (node.negate) return NOTHING;
  const chars = new Set<string>();
  for (const element of node.elements) {
    if (element.type === 'Character') chars.add(String.fromCodePoint(element.value));
    else if (
      element.type === 'CharacterClassRange' &&
      element.max.value - element.min.value < MOST_CLASS_CHARS
    )
      for (let c = element.min.value; c <= element.max.value; c++) chars.add(String.fromCodePoint(c));
    else return NOTHING;
  }
  const list = [...new Set([...chars].map((c) => (fold ? c.toLowerCase() : c)))];
  // `[]` matches nothing; saying nothing of it keeps every set of strings non-empty.
  return list.length === 0 || list.length > MOST_CLASS_CHARS ? NOTHING : exactly(list);
}

function repeated(node: AST.Quantifier, fold: boolean): Facts {
  const element = factsOf(node.element, fold);
  if (element.exact && node.max <= 2) {
    const all = new Set<string>(node.min === 0 ? [''] : []);
    let power: string[] | null = [''];
    for (let i = 1; i <= node.max && power; i++) {
      power = product(power, element.exact);
      if (power && i >= node.min) for (const s of power) all.add(s);
    }
    if (power && all.size <= MOST_STRINGS) return exactly([...all]);
  }
  if (node.min === 0) return NOTHING;
  const prefix = element.exact ?? element.prefix;
  const suffix = element.exact ?? element.suffix;
  return { exact: null, prefix, suffix, required: best(element.required, prefix, suffix) };
}

function factsOf(node: AST.Element, fold: boolean): Facts {
  switch (node.type) {
    case 'Character': {
      const c = String.fromCodePoint(node.value);
      return exactly([fold ? c.toLowerCase() : c]);
    }
    case 'CharacterClass':
      return characters(node, fold);
    case 'Group':
    case 'CapturingGroup':
      return alternatives(node.alternatives, fold);
    case 'Quantifier':
      return repeated(node, fold);
    case 'Assertion':
      return EMPTY; // zero width: `\b`, `^`, look-arounds
    default:
      return NOTHING; // `\d`, `.`, `\p{…}`, back-references, set operations
  }
}

/** Keywords for a rule: literals, and whether they are to be found in any letter case. */
export interface Keywords {
  words: string[];
  anyCase: boolean;
}

/**
 * Strings one of which every match of an expression contains (in lower case, `anyCase`, for an expression
 * with flag `i`), or null when the expression has no such strings of at least three characters.
 *
 * @example requiredLiterals(/\b(?:ghp|gho)_[A-Za-z0-9]{36}/g) // { words: ['ghp_', 'gho_'], anyCase: false }
 */
export function requiredLiterals(expression: RegExp): Keywords | null {
  const fold = expression.flags.includes('i');
  // With `u` and `i`, letters also match characters outside ASCII (`ſ` is an `s`), which keywords do not find.
  if (fold && (expression.flags.includes('u') || expression.flags.includes('v'))) return null;
  const pattern = new RegExpParser().parsePattern(expression.source, undefined, undefined, {
    unicode: expression.flags.includes('u'),
    unicodeSets: expression.flags.includes('v'),
  });
  const words = alternatives(pattern.alternatives, fold).required;
  if (Math.min(...words.map((w) => w.length)) < SHORTEST_KEYWORD) return null;
  // A word that contains another of the set adds nothing: where it is, the other is too.
  return { words: words.filter((w) => !words.some((o) => o !== w && w.includes(o))), anyCase: fold };
}
