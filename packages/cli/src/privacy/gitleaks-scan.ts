/**
 * gitleaks' rules inside the one keyword scan: a rule runs only on the parts of a string around the keywords it
 * declares (as far on each side as its longest match), and what it matches is checked as gitleaks checks it
 * (secret group, entropy, the rule's allowlists, the global allowlist) before it is reported.
 */

import {
  allows,
  type CompiledAllowlist,
  compileAllowlist,
  type GitleaksRule,
  shannonEntropy,
} from './gitleaks-rule.js';
import { GITLEAKS_ALLOWLIST, GITLEAKS_RULES } from './gitleaks-rules.js';

/** A secret found: its text and the rule that found it. */
export interface Finding {
  value: string;
  kind: string;
}

/** A rule ready to run. */
interface Compiled {
  rule: GitleaksRule;
  regex: RegExp;
  allow: readonly CompiledAllowlist[];
}

// Each rule is compiled when one of its keywords first fires: most never do, in most runs.
const compiled: (Compiled | undefined)[] = [];
let globalAllow: CompiledAllowlist | null = null;

function ruleAt(index: number): Compiled | undefined {
  const ready = compiled[index];
  if (ready !== undefined) return ready;
  const rule = GITLEAKS_RULES[index];
  if (rule === undefined) return undefined;
  compiled[index] = {
    rule,
    regex: new RegExp(rule.regex, 'g'),
    allow: (rule.allow ?? []).map(compileAllowlist),
  };
  return compiled[index];
}

/** gitleaks' rules' keywords: each rule's, in order (lower case, found in any letter case). */
export function gitleaksKeywords(): readonly (readonly string[])[] {
  return GITLEAKS_RULES.map((rule) => rule.keywords);
}

/**
 * The check a keyword of a rule must pass where it ends (see `GitleaksRule.after`), if it has one.
 *
 * @param index The rule's index in `gitleaksKeywords()`.
 */
export function afterKeyword(index: number, keyword: string): RegExp | undefined {
  const after = GITLEAKS_RULES[index]?.after;
  return after !== undefined && Object.hasOwn(after, keyword) ? new RegExp(after[keyword]!, 'y') : undefined;
}

// Where a part is widened to, at most, to start and end at whitespace (so `\b` and `$` read as in the string).
const WIDEN = 256;
const WHOLE = 4096;
const LONGEST_KEYWORD = 64;

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** The parts of a text a rule runs on: around each hit, merged. */
function parts(text: string, hits: readonly number[], reach: number): [number, number][] {
  const out: [number, number][] = [];
  for (const hit of hits) {
    let start = Math.max(0, hit - Math.min(reach, WHOLE));
    // A match may start after the keyword (`airtable … pat…`): as far as its reach past the keyword's end.
    let end = reach > WHOLE ? text.length : Math.min(text.length, hit + reach + LONGEST_KEYWORD);
    for (let n = 0; start > 0 && n < WIDEN && !isSpace(text.charCodeAt(start - 1)); n++) start--;
    for (let n = 0; end < text.length && n < WIDEN && !isSpace(text.charCodeAt(end)); n++) end++;
    const last = out[out.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** The line of a text around `[start, end)`. */
function lineAround(text: string, start: number, end: number): string {
  const stop = text.indexOf('\n', end);
  return text.slice(text.lastIndexOf('\n', start - 1) + 1, stop === -1 ? text.length : stop);
}

/** Whether a match is a secret, as gitleaks decides. */
function isSecret({ rule, allow }: Compiled, secret: string, match: string, line: () => string): boolean {
  if (secret === '') return false;
  if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) return false;
  globalAllow ??= compileAllowlist(GITLEAKS_ALLOWLIST);
  const candidate = { secret, match, line: '' };
  if (allows(globalAllow, candidate)) return false;
  if (allow.length === 0) return true;
  if (allow.some((list) => list.target === 'line')) candidate.line = line();
  return !allow.some((list) => allows(list, candidate));
}

/**
 * What one rule finds around its keywords in a text.
 *
 * @param index The rule's index in `gitleaksKeywords()`.
 * @param hits Where its keywords start, in increasing order.
 * @param out Receives what it finds.
 */
export function gitleaksFindings(text: string, index: number, hits: readonly number[], out: Finding[]): void {
  const rule = ruleAt(index);
  if (rule === undefined) return;
  const { regex } = rule;
  for (const [start, end] of parts(text, hits, rule.rule.reach)) {
    const part = start === 0 && end === text.length ? text : text.slice(start, end);
    regex.lastIndex = 0;
    for (let m = regex.exec(part); m !== null; m = regex.exec(part)) {
      if (m[0] === '') {
        regex.lastIndex++;
        continue;
      }
      const secret = rule.rule.group !== undefined ? (m[rule.rule.group] ?? '') : firstGroup(m);
      const at = start + m.index;
      if (isSecret(rule, secret, m[0], () => lineAround(text, at, at + m[0].length)))
        out.push({ value: secret, kind: rule.rule.id });
    }
  }
}

/** The first capture group that matched, else the whole match (gitleaks' secret). */
function firstGroup(match: RegExpExecArray): string {
  for (let i = 1; i < match.length; i++) if (match[i]) return match[i]!;
  return match[0];
}
