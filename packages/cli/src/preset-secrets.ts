/**
 * secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`) as a redaction engine: its
 * rules, kept by the secretlint project, find vendor tokens cctrail's own shapes may not know yet. The rules are
 * run directly and synchronously (each rule's `file` handler over a text), without `@secretlint/core`'s
 * per-file machinery, which costs more than the scan itself on many small strings. A session's strings are
 * scanned together, a few megabytes at a time, so each rule's expression runs once per chunk, not once per
 * string.
 */

import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { rewriteStrings } from './rewrite-strings.js';

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
const HANDLERS = SCANNERS.map((rule) => {
  const kind = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
  const handler = rule.create(
    {
      createTranslator: () => (id) => id,
      report: ({ range }) => reportTo?.(kind, range),
      ignore: () => {},
    },
    {},
  );
  return handler.file;
}).filter((file) => file !== undefined);

/** Runs every rule of the preset over one text; calls `found` with each range reported. */
function scan(content: string, found: (kind: string, range: readonly [number, number]) => void): void {
  const source: PresetSource = { content, filePath: '/transcript.txt', ext: '.txt', contentType: 'text' };
  reportTo = found;
  try {
    for (const file of HANDLERS) file(source);
  } finally {
    reportTo = null;
  }
}

/**
 * The secrets the preset finds in one string.
 *
 * @param text Any text.
 */
export function presetSecrets(text: string): PresetFinding[] {
  const out: PresetFinding[] = [];
  scan(text, (kind, [start, end]) => {
    if (end > start) out.push({ kind, value: text.slice(start, end) });
  });
  return out;
}

// Strings are joined by a blank line, which no rule's secret spans, in chunks of about this many characters.
const CHUNK = 4 * 1024 * 1024;
const GLUE = '\n\n';

/**
 * The secrets the preset finds in every string of a value (object keys included, as `redactSecrets` reads
 * them), scanned in chunks of joined strings. A range that spans strings counts for each part.
 *
 * @param value A session, an index line, any JSON value.
 */
export function presetSecretsIn(value: unknown): PresetFinding[] {
  const out: PresetFinding[] = [];
  let strings: string[] = [];
  let size = 0;
  const flush = () => {
    if (strings.length === 0) return;
    const starts: number[] = [];
    let at = 0;
    for (const s of strings) {
      starts.push(at);
      at += s.length + GLUE.length;
    }
    const parts = strings;
    scan(parts.join(GLUE), (kind, [start, end]) => {
      for (let i = lastAtOrBefore(starts, start); i < parts.length && starts[i]! < end; i++) {
        const from = Math.max(start, starts[i]!) - starts[i]!;
        const to = Math.min(end, starts[i]! + parts[i]!.length) - starts[i]!;
        if (to > from) out.push({ kind, value: parts[i]!.slice(from, to) });
      }
    });
    strings = [];
    size = 0;
  };
  rewriteStrings(
    value,
    (text) => {
      strings.push(text);
      size += text.length;
      if (size >= CHUNK) flush();
      return { text, count: 0 };
    },
    { keys: true },
  );
  flush();
  return out;
}

/** The index of the last start at or before `at` (starts ascend, the first is 0). */
function lastAtOrBefore(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
