/**
 * The pre-filter of redaction: one keyword scan of a string says which rules can match in it and where. The
 * keywords of cctrail's rules (`rules.ts`) and of secretlint's preset (`preset-rules.ts`) are one automaton; a
 * string without any keyword costs that one pass and nothing else.
 */

import { type Keyword, KeywordScan } from './keyword-scan.js';
import { PRESET_RULES } from './preset-rules.js';
import type { SecretPattern } from './rule.js';
import { SECRET_PATTERNS } from './rules.js';

/** Which rules a string selects. */
export interface Selection {
  /** For each of cctrail's rules (by index in `SECRET_PATTERNS`) found, where its keywords start, in order. */
  rules: Map<number, number[]>;
  /** The preset's rules selected (indexes in `PRESET_RULES`), in order. */
  preset: number[];
}

/** Who a keyword selects: one of cctrail's rules (its index), or one of the preset's (`-1 - index`). */
type Owner = number;

const KEYWORDS: Keyword[] = [];
const OWNERS: Owner[][] = [];
const INDEX = new Map<string, number>();

function add(word: string, anyCase: boolean, owner: Owner): void {
  const key = `${anyCase ? 'i' : 'c'}${anyCase ? word.toLowerCase() : word}`;
  let index = INDEX.get(key);
  if (index === undefined) {
    index = KEYWORDS.length;
    INDEX.set(key, index);
    KEYWORDS.push({ word, anyCase });
    OWNERS.push([]);
  }
  const owners = OWNERS[index]!;
  if (!owners.includes(owner)) owners.push(owner);
}

SECRET_PATTERNS.forEach((rule, index) => {
  for (const word of rule.keywords) add(word, rule.anyCase === true, index);
});
const ALWAYS: number[] = [];
PRESET_RULES.forEach(({ keywords }, index) => {
  if (keywords === null) ALWAYS.push(index);
  else for (const { words, anyCase } of keywords) for (const word of words) add(word, anyCase, -1 - index);
});

const SCAN = new KeywordScan(KEYWORDS);

/** Whether a keyword found at `start` passes its rule's second check. */
function passes({ next }: SecretPattern, text: string, end: number): boolean {
  if (next === undefined) return true;
  next.lastIndex = end;
  return next.test(text);
}

/**
 * The rules one string selects, by one scan of it; null when it selects none.
 *
 * @param text A string, without terminal codes.
 */
export function selectRules(text: string): Selection | null {
  let rules: Map<number, number[]> | null = null;
  let preset: Set<number> | null = null;
  SCAN.scan(text, (keyword, start) => {
    const end = start + KEYWORDS[keyword]!.word.length;
    for (const owner of OWNERS[keyword]!) {
      if (owner < 0) {
        preset ??= new Set();
        preset.add(-1 - owner);
      } else if (passes(SECRET_PATTERNS[owner]!, text, end)) {
        rules ??= new Map();
        const at = rules.get(owner);
        if (at === undefined) rules.set(owner, [start]);
        else at.push(start);
      }
    }
  });
  if (rules === null && preset === null && ALWAYS.length === 0) return null;
  const selected: number[] = preset === null ? [...ALWAYS] : [...ALWAYS, ...(preset as Set<number>)];
  const found: Map<number, number[]> = rules ?? new Map();
  // A rule's keywords are reported in the order they end; a shorter one may start after a longer one ending later.
  for (const at of found.values()) if (at.length > 1) at.sort((a, b) => a - b);
  return { rules: found, preset: selected.sort((a, b) => a - b) };
}
