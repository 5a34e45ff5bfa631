/**
 * The shape of gitleaks' rules as `scripts/privacy/gitleaks-rules.mjs` writes them (`gitleaks-rules.ts`), and
 * the checks gitleaks makes of a match before it reports it: the rule's entropy threshold, its allowlists and the
 * global allowlist.
 */

/** What makes a match not a secret. */
export interface GitleaksAllowlist {
  /** All conditions must hold (`AND`), else any one. */
  and: boolean;
  /** What the expressions are matched against. */
  target: 'secret' | 'match' | 'line';
  /** JavaScript sources (compiled without flags). */
  regexes: readonly string[];
  /** Words that, held by the secret in lower case, make it no secret. */
  stopwords: readonly string[];
}

/** One gitleaks rule, converted. */
export interface GitleaksRule {
  id: string;
  /** Lower-case keywords, one of which (in any letter case) a string holds for the rule to run on it. */
  keywords: readonly string[];
  /** JavaScript source of the rule's expression (compiled without flags). */
  regex: string;
  /** The most characters a match spans; above 4,096 the rule runs on the rest of the string. */
  reach: number;
  /** Shannon entropy (bits a character) the secret must exceed. */
  entropy?: number;
  /** The capture group that is the secret; by default the first that matched, else the whole match. */
  group?: number;
  /** For a keyword that ordinary words hold: what must follow it (a sticky expression's source). */
  after?: Readonly<Record<string, string>>;
  allow?: readonly GitleaksAllowlist[];
}

/** Shannon entropy of a text, in bits a character (as gitleaks computes it, over code points). */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  let length = 0;
  for (const c of text) {
    counts.set(c, (counts.get(c) ?? 0) + 1);
    length++;
  }
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** An allowlist with its expressions compiled. */
export interface CompiledAllowlist {
  and: boolean;
  target: 'secret' | 'match' | 'line';
  regexes: readonly RegExp[];
  stopwords: readonly string[];
}

/** Compiles an allowlist's expressions. */
export function compileAllowlist(list: GitleaksAllowlist): CompiledAllowlist {
  return { ...list, regexes: list.regexes.map((source) => new RegExp(source)) };
}

/** What an allowlist is matched against. */
export interface Candidate {
  secret: string;
  match: string;
  line: string;
}

/** Whether an allowlist says a candidate is not a secret. */
export function allows(list: CompiledAllowlist, candidate: Candidate): boolean {
  const target = candidate[list.target];
  const lower = candidate.secret.toLowerCase();
  const byRegex = list.regexes.length > 0 ? list.regexes.some((r) => r.test(target)) : null;
  const byWord = list.stopwords.length > 0 ? list.stopwords.some((w) => lower.includes(w)) : null;
  const held = [byRegex, byWord].filter((x): x is boolean => x !== null);
  return list.and ? held.length > 0 && held.every(Boolean) : held.some(Boolean);
}
