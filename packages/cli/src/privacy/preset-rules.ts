/**
 * secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`) as a source of rules: its
 * rules, kept by the secretlint project, find vendor tokens. Most of its vendor shapes run as cctrail's own
 * patterns, derived from these rules' expressions by a script (`preset-shapes.ts`); the rest run here. Each rule's
 * `file` handler runs directly and synchronously over one string, without `@secretlint/core`'s per-file
 * machinery. Each rule's keywords are read from its own expressions (`requiredLiterals`), so that it joins the
 * one keyword scan (`keyword-scan.ts`) and runs only on the strings that hold one of them. Reading them costs every
 * process 50–60 ms, so they are read by a script (`scripts/privacy/preset-keywords.mjs`) into a table by
 * expression (`preset-keywords.ts`); an expression the table does not hold (a newer preset) is read at run time.
 */

import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { type Keywords, requiredLiterals } from './literals.js';
import { PRESET_KEYWORDS } from './preset-keywords.js';
import { PRESET_NEXT } from './preset-next.js';

/** What a rule reports: a range of the text. */
interface Report {
  range: readonly [number, number];
}

/** The part of a secretlint rule this module uses. */
interface PresetRule {
  meta: { id: string };
  create(
    context: {
      createTranslator(): (id: string) => string;
      report(report: Report): void;
      ignore(): void;
    },
    options: object,
  ): { file?: (source: PresetSource) => void };
}

/** The source a rule scans. */
interface PresetSource {
  content: string;
  filePath: string;
  ext: string;
  contentType: 'text';
}

/** A secret the preset found: its text and the rule that found it (`aws`, `slack`, …). */
export interface PresetFinding {
  value: string;
  kind: string;
}

/** One rule of the preset: its name, and its keywords (null: it runs on every string). */
export interface PresetRuleKeywords {
  kind: string;
  keywords: Keywords[] | null;
  /** What must follow any of its keywords where the rule matches (`preset-next.ts`), if that is known. */
  next?: RegExp;
}

let reportTo: ((kind: string, range: readonly [number, number]) => void) | null = null;

/**
 * The expressions a handler matches a text with: it runs once on a source whose `content` writes them down.
 * A rule that finds nothing with an expression on a transcript (`gcp` reads `.json` files only) has none; one
 * that needs more of a string than `matchAll` fails here and has no keywords (it runs on every string).
 * `content` is a plain object: a `String` object given a method of its own would make V8 give up fast paths for
 * every string of the process (all string scans five times slower).
 */
function expressionsOf(file: (source: PresetSource) => void): RegExp[] | null {
  const seen: RegExp[] = [];
  const content = {
    matchAll(expression: RegExp) {
      seen.push(expression);
      return [][Symbol.iterator]();
    },
  };
  try {
    file({
      content: content as unknown as string,
      filePath: '/transcript.txt',
      ext: '.txt',
      contentType: 'text',
    });
  } catch {
    return null;
  }
  return seen;
}

/** An expression's keywords: the table's (`preset-keywords.ts`), else read from it. */
function literalsOf(expression: RegExp): Keywords | null {
  const key = String(expression);
  return Object.hasOwn(PRESET_KEYWORDS, key) ? (PRESET_KEYWORDS[key] ?? null) : requiredLiterals(expression);
}

/** A rule's keywords: those of each of its expressions, or null when one of them has none. */
function keywordsOf(expressions: readonly RegExp[] | null): Keywords[] | null {
  if (expressions === null) return null;
  const all: Keywords[] = [];
  for (const expression of expressions) {
    const keywords = literalsOf(expression);
    if (keywords === null) return null;
    all.push(keywords);
  }
  return all;
}

/** A rule of the preset, ready to run. */
interface Handler {
  kind: string;
  file: (source: PresetSource) => void;
  /** The expressions it matches a text with (see `expressionsOf`). */
  expressions: RegExp[] | null;
}

let handlers: readonly Handler[] | null = null;

/** The preset's rules, each created with its options (by rule: `aws`, …), with the expressions it matches. */
function created(options: Readonly<Record<string, object>>): Handler[] {
  // `filter-comments` lets a text switch the scan off (`secretlint-disable`): a transcript must not.
  return (rules as unknown as readonly PresetRule[])
    .filter((rule) => !rule.meta.id.endsWith('/secretlint-rule-filter-comments'))
    .flatMap((rule) => {
      const kind = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
      const { file } = rule.create(
        {
          createTranslator: () => (id) => id,
          report: ({ range }) => reportTo?.(kind, range),
          ignore: () => {},
        },
        options[kind] ?? {},
      );
      return file ? [{ kind, file, expressions: expressionsOf(file) }] : [];
    });
}

/**
 * The preset's rules, created and their keywords read on first use: an export without redaction (the hook's,
 * `cctrail export`) does not pay for it.
 */
function loaded(): readonly Handler[] {
  handlers ??= created({});
  return handlers;
}

/**
 * The expressions of the preset's rules, by rule, created with the options given (what
 * `scripts/privacy/preset-shapes.mjs` derives cctrail's patterns from: `preset-shapes.ts`).
 */
export function presetExpressions(options: Readonly<Record<string, object>>): Record<string, RegExp[]> {
  const out: Record<string, RegExp[]> = {};
  for (const { kind, expressions } of created(options)) out[kind] = expressions ?? [];
  return out;
}

/**
 * A check that a value is a secret as one rule of the preset says, by its own code (lengths, a private key's
 * base64, a token's JSON): the rule, run on the value alone, reports all of it.
 *
 * @param kind A rule of the preset (`sendgrid`, `privatekey`, …).
 */
export function confirmedBy(kind: string): (value: string) => boolean {
  let rule: number[] | null = null;
  return (value) => {
    rule ??= [loaded().findIndex((handler) => handler.kind === kind)];
    return presetSecrets(value, rule).some((finding) => finding.value === value);
  };
}

/** The preset's rules in order, each with the keywords that select it. */
export function presetRules(): readonly PresetRuleKeywords[] {
  return loaded().map(({ kind, expressions }) => {
    const keywords = keywordsOf(expressions);
    // A check belongs to one expression: a rule matching with several has none.
    const next = expressions?.length === 1 ? PRESET_NEXT[String(expressions[0])] : undefined;
    return next === undefined ? { kind, keywords } : { kind, keywords, next };
  });
}

/**
 * The keywords of every expression of the preset's rules, read from the expressions (what
 * `scripts/privacy/preset-keywords.mjs` writes into `preset-keywords.ts`), by `String(expression)`.
 */
export function readPresetKeywords(): Record<string, Keywords | null> {
  const out: Record<string, Keywords | null> = {};
  for (const { expressions } of loaded())
    for (const expression of expressions ?? []) out[String(expression)] = requiredLiterals(expression);
  return out;
}

/**
 * The secrets the preset's rules find in one string.
 *
 * @param text Any text.
 * @param which The indexes (in `presetRules()`) of the rules to run, in increasing order; all of them by default.
 */
export function presetSecrets(text: string, which?: readonly number[]): PresetFinding[] {
  const all = loaded();
  const out: PresetFinding[] = [];
  const source: PresetSource = {
    content: text,
    filePath: '/transcript.txt',
    ext: '.txt',
    contentType: 'text',
  };
  reportTo = (kind, [start, end]) => {
    if (end > start) out.push({ kind, value: text.slice(start, end) });
  };
  try {
    if (which === undefined) for (const { file } of all) file(source);
    else for (const i of which) all[i]?.file(source);
  } finally {
    reportTo = null;
  }
  return out;
}
