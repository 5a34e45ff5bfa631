/**
 * secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`) as a redaction engine: its
 * rules, kept by the secretlint project, find vendor tokens cctrail's own shapes may not know yet. The rules are
 * run directly and synchronously (each rule's `file` handler over a string), without `@secretlint/core`'s
 * per-file machinery, which costs more than the scan itself on many small strings. A rule runs only on strings
 * holding one of its literals (`PRESET_HINTS`, data checked against the rules by the tests): most strings hold
 * none, and 27 expressions over every string would cost ten times cctrail's own patterns.
 */

import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { PRESET_HINTS } from './preset-hints.js';

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

// `filter-comments` lets a text switch the scan off (`secretlint-disable`): a transcript must not.
const SCANNERS = (rules as unknown as readonly PresetRule[]).filter(
  (rule) => !rule.meta.id.endsWith('/secretlint-rule-filter-comments'),
);
let reportTo: ((kind: string, range: readonly [number, number]) => void) | null = null;
const HANDLERS = SCANNERS.flatMap((rule) => {
  const kind = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
  const { file } = rule.create(
    {
      createTranslator: () => (id) => id,
      report: ({ range }) => reportTo?.(kind, range),
      ignore: () => {},
    },
    {},
  );
  // A rule the table does not know (a newer preset) runs on every string.
  return file ? [{ kind, file, hints: PRESET_HINTS[kind] ?? null }] : [];
});

const LITERALS = [...new Set(HANDLERS.flatMap(({ hints }) => hints ?? []))].map((hint) =>
  hint.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
);
// Whether a text holds any rule's literal: one search, about five times faster than the look-ahead below, and
// most strings hold none.
const SOME_HINT = new RegExp(LITERALS.join('|'));
const UNLISTED = HANDLERS.some(({ hints }) => hints === null);
// Where any rule's literal starts (a look-ahead, so that literals overlapping one another are all found).
const ANY_HINT = new RegExp(`(?=(${LITERALS.join('|')}))`, 'g');

/** Runs the rules whose literals a text holds (all of them with `all`); calls `found` with each range reported. */
function scan(
  content: string,
  found: (kind: string, range: readonly [number, number]) => void,
  all = false,
): void {
  const present = new Set<string>();
  if (!all && !UNLISTED && !SOME_HINT.test(content)) return;
  for (const match of content.matchAll(ANY_HINT)) present.add(match[1]!);
  const source: PresetSource = { content, filePath: '/transcript.txt', ext: '.txt', contentType: 'text' };
  reportTo = found;
  try {
    for (const { file, hints } of HANDLERS)
      if (all || hints === null || hints.some((hint) => present.has(hint))) file(source);
  } finally {
    reportTo = null;
  }
}

/**
 * The secrets the preset finds in one string.
 *
 * @param text Any text.
 * @param options `everyRule`: run every rule, whatever literals the text holds (to check `PRESET_HINTS`).
 */
export function presetSecrets(text: string, options: { everyRule?: boolean } = {}): PresetFinding[] {
  const out: PresetFinding[] = [];
  scan(
    text,
    (kind, [start, end]) => {
      if (end > start) out.push({ kind, value: text.slice(start, end) });
    },
    options.everyRule,
  );
  return out;
}
