/**
 * The pre-filter of redaction: one keyword scan of a string says which rules can match in it and where. The
 * keywords of cctrail's rules (`rules.ts`) and of secretlint's preset (`preset-rules.ts`) are one automaton; a
 * string without any keyword costs that one pass and nothing else.
 */

import { type Keyword, KeywordScan } from './keyword-scan.js';
import { presetRules } from './preset-rules.js';
import type { SecretPattern } from './rule.js';
import { SECRET_PATTERNS } from './rules.js';

/** Which rules a string selects. */
export interface Selection {
  /** For each of cctrail's rules (by index in `SECRET_PATTERNS`) found, where its keywords start, in order. */
  rules: Map<number, number[]>;
  /** The preset's rules selected (indexes in `presetRules()`), in order. */
  preset: number[];
}

/** Who a keyword selects: one of cctrail's rules (its index), or one of the preset's (`-1 - index`). */
type Owner = number;

/** The keywords of every rule, compiled. */
interface Table {
  keywords: Keyword[];
  owners: Owner[][];
  /** The preset's rules without keywords, which run on every string. */
  always: number[];
  scan: KeywordScan;
}

let compiled: Table | null = null;
// The keywords one scan found, as pairs (keyword, start): one array for every string.
const HITS: number[] = [];

/** The table of every rule's keywords, made on first use (an export without redaction never makes it). */
function table(): Table {
  if (compiled !== null) return compiled;
  const keywords: Keyword[] = [];
  const owners: Owner[][] = [];
  const index = new Map<string, number>();
  const add = (word: string, anyCase: boolean, owner: Owner) => {
    const key = `${anyCase ? 'i' : 'c'}${anyCase ? word.toLowerCase() : word}`;
    let at = index.get(key);
    if (at === undefined) {
      at = keywords.length;
      index.set(key, at);
      keywords.push({ word, anyCase });
      owners.push([]);
    }
    if (!owners[at]!.includes(owner)) owners[at]!.push(owner);
  };
  SECRET_PATTERNS.forEach((rule, i) => {
    for (const word of rule.keywords) add(word, rule.anyCase === true, i);
  });
  const always: number[] = [];
  presetRules().forEach(({ keywords: list }, i) => {
    if (list === null) always.push(i);
    else for (const { words, anyCase } of list) for (const word of words) add(word, anyCase, -1 - i);
  });
  compiled = { keywords, owners, always, scan: new KeywordScan(keywords) };
  return compiled;
}

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
  const compiledTable = compiled ?? table();
  HITS.length = 0;
  // Most strings: no keyword, nothing else to do.
  if (compiledTable.scan.scan(text, HITS) === 0 && compiledTable.always.length === 0) return null;
  const { keywords, owners, always } = compiledTable;
  let rules: Map<number, number[]> | null = null;
  let preset: Set<number> | null = null;
  for (let h = 0; h < HITS.length; h += 2) {
    const keyword = HITS[h]!;
    const start = HITS[h + 1]!;
    const end = start + keywords[keyword]!.word.length;
    for (const owner of owners[keyword]!) {
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
  }
  if (rules === null && preset === null && always.length === 0) return null;
  const selected: number[] = preset === null ? [...always] : [...always, ...preset];
  const found: Map<number, number[]> = rules ?? new Map();
  // A rule's keywords are reported in the order they end; a shorter one may start after a longer one ending later.
  for (const at of found.values()) if (at.length > 1) at.sort((a, b) => a - b);
  return { rules: found, preset: selected.sort((a, b) => a - b) };
}
