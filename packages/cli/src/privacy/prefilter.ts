/**
 * The pre-filter of redaction: one keyword scan of a string says which rules can match in it and where. The
 * keywords of cctrail's rules (`rules.ts`), gitleaks' rules (`gitleaks-rules.ts`) and secretlint's preset
 * (`preset-rules.ts`) are one automaton; a string without any keyword costs that one pass and nothing else. The
 * same pass says whether the string holds a terminal escape (`\u001b`), which redaction reads without.
 */

import { afterKeyword, gitleaksKeywords } from './gitleaks-scan.js';
import { type Keyword, KeywordScan } from './keyword-scan.js';
import { presetRules } from './preset-rules.js';
import { SECRET_PATTERNS } from './rules.js';

/** Which rules a string selects. */
export interface Selection {
  /** For each of cctrail's rules (by index in `SECRET_PATTERNS`) found, where its keywords start, in order. */
  rules: Map<number, number[]>;
  /** The same for gitleaks' rules (by index in `gitleaksKeywords()`). */
  gitleaks: Map<number, number[]>;
  /** The preset's rules selected (indexes in `presetRules()`), in order. */
  preset: number[];
  /** Whether the string holds a terminal escape character (`\u001b`). */
  escape: boolean;
}

/**
 * Who a keyword selects: one of cctrail's rules (its index), one of gitleaks' (`GITLEAKS + index`), one of
 * the preset's (`-1 - index`), or none (`ESCAPE`: the escape character, found by the same pass).
 */
type Owner = number;
const GITLEAKS = 1 << 20;
const ESCAPE = 1 << 21;

/** The keywords of every rule, compiled. */
interface Table {
  keywords: Keyword[];
  owners: Owner[][];
  /** For each owner of each keyword, the check it must pass where it ends (`SecretPattern.next`), if any. */
  checks: (RegExp | undefined)[][];
  /** The preset's rules without keywords, which run on every string. */
  always: number[];
  scan: KeywordScan;
}

let compiled: Table | null = null;
// The keywords one scan found, as pairs (keyword, start): one array for every string, never emptied (a scan
// says how many pairs it wrote).
const HITS: number[] = [];

/** The table of every rule's keywords, made on first use (an export without redaction never makes it). */
function table(): Table {
  if (compiled !== null) return compiled;
  const keywords: Keyword[] = [];
  const owners: Owner[][] = [];
  const checks: (RegExp | undefined)[][] = [];
  const index = new Map<string, number>();
  const add = (word: string, anyCase: boolean, owner: Owner, check?: RegExp) => {
    const key = `${anyCase ? 'i' : 'c'}${anyCase ? word.toLowerCase() : word}`;
    let at = index.get(key);
    if (at === undefined) {
      at = keywords.length;
      index.set(key, at);
      keywords.push({ word, anyCase });
      owners.push([]);
      checks.push([]);
    }
    if (owners[at]!.includes(owner)) return;
    owners[at]!.push(owner);
    checks[at]!.push(check);
  };
  SECRET_PATTERNS.forEach((rule, i) => {
    for (const word of rule.keywords) add(word, rule.anyCase === true, i, rule.next);
  });
  gitleaksKeywords().forEach((words, i) => {
    for (const word of words) add(word, true, GITLEAKS + i, afterKeyword(i, word));
  });
  add('\u001b', false, ESCAPE);
  const always: number[] = [];
  presetRules().forEach(({ keywords: list, next }, i) => {
    if (list === null) always.push(i);
    else for (const { words, anyCase } of list) for (const word of words) add(word, anyCase, -1 - i, next);
  });
  compiled = { keywords, owners, checks, always, scan: new KeywordScan(keywords) };
  return compiled;
}

/** Whether a keyword ending at `end` passes its rule's second check. */
function passes(next: RegExp | undefined, text: string, end: number): boolean {
  if (next === undefined) return true;
  next.lastIndex = end;
  return next.test(text);
}

/** Adds where a rule's keyword starts to a map of hits. */
function hit(map: Map<number, number[]> | null, owner: number, start: number): Map<number, number[]> {
  const out = map ?? new Map<number, number[]>();
  const at = out.get(owner);
  if (at === undefined) out.set(owner, [start]);
  else at.push(start);
  return out;
}

/**
 * The rules one string selects, by one scan of it; null when it selects none.
 *
 * @param text A string, without terminal codes.
 */
export function selectRules(text: string): Selection | null {
  const compiledTable = compiled ?? table();
  const found = compiledTable.scan.scan(text, HITS);
  // Most strings: no keyword, nothing else to do.
  if (found === 0 && compiledTable.always.length === 0) return null;
  const { keywords, owners, checks, always } = compiledTable;
  let rules: Map<number, number[]> | null = null;
  let gitleaks: Map<number, number[]> | null = null;
  let preset: Set<number> | null = null;
  let terminal = false;
  for (let h = 0; h < 2 * found; h += 2) {
    const keyword = HITS[h]!;
    const start = HITS[h + 1]!;
    const end = start + keywords[keyword]!.word.length;
    const list = owners[keyword]!;
    for (let o = 0; o < list.length; o++) {
      const owner = list[o]!;
      if (owner === ESCAPE) terminal = true;
      else if (!passes(checks[keyword]![o], text, end)) continue;
      else if (owner < 0) {
        preset ??= new Set();
        preset.add(-1 - owner);
      } else if (owner >= GITLEAKS) gitleaks = hit(gitleaks, owner - GITLEAKS, start);
      else rules = hit(rules, owner, start);
    }
  }
  if (rules === null && gitleaks === null && preset === null && always.length === 0 && !terminal) return null;
  const selected: number[] = preset === null ? [...always] : [...always, ...preset];
  const mine: Map<number, number[]> = rules ?? new Map();
  const other: Map<number, number[]> = gitleaks ?? new Map();
  // A rule's keywords are reported in the order they end; a shorter one may start after a longer one ending later.
  for (const map of [mine, other]) for (const at of map.values()) if (at.length > 1) at.sort((a, b) => a - b);
  return { rules: mine, gitleaks: other, preset: selected.sort((a, b) => a - b), escape: terminal };
}
