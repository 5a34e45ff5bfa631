// The calibrated benchmark archive's prose is shaped like real transcripts' text: markdown work (paragraphs, lists,
// code spans and blocks) and redaction's line-based shapes cost what they cost on real archives, not less.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { prng, textPool } from '../bench/random.mjs';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/claude-projects');

/** Occurrences per 1,000 characters of each markdown feature in `text`. */
function shape(text) {
  const per = (pattern) => ((text.match(pattern) ?? []).length / text.length) * 1000;
  return {
    'line breaks': per(/\n/g),
    'list items': per(/^\s*(?:[-*]|\d+\.) /gm),
    'code spans': per(/`[^`\n]+`/g),
    'bold spans': per(/\*\*[^*\n]+\*\*/g),
    headings: per(/^#{1,6} /gm),
    fences: per(/^```/gm),
    // What sends text to the report's full markdown pipeline: a line of words right after a list item (the
    // item's own, for markdown), nested items, links, web addresses, tables, quotes, single emphasis, tags.
    'lazy lines after an item': per(
      /^\s*(?:[-*]|\d+\.) [^\n]*\n(?![ \t]*\n|\s*(?:[-*]|\d+\.) |#|```|[ \t])[^\n]/gm,
    ),
    'nested items': per(/^[ \t]{2,}(?:[-*]|\d+\.) /gm),
    links: per(/\[[^\]\n]+\]\([^)\s]+\)/g),
    'web addresses': per(/https?:\/\//g),
    'table rows': per(/^\|.*\|[ \t]*$/gm),
    quotes: per(/^> /gm),
    'single emphasis': per(/(?<![*\w])[*_][^*_\s][^*_\n]*[*_](?![*\w])/g),
    tags: per(/<\/?[a-zA-Z][^>\n]*>/g),
  };
}

/** The text blocks of every assistant response in the shared corpus, one string. */
function corpusProse() {
  const texts = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl'))
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          let record;
          try {
            record = JSON.parse(line);
          } catch {
            continue;
          }
          const content = record?.type === 'assistant' ? record.message?.content : undefined;
          if (Array.isArray(content))
            for (const block of content) if (block?.type === 'text') texts.push(block.text);
        }
    }
  };
  walk(CORPUS);
  return texts.join('\n\n');
}

describe('the calibrated generator’s text pool', () => {
  const pool = textPool(prng(11), 400_000);

  test('breaks lines with real line breaks, never with a written backslash-n', () => {
    expect(pool).toContain('\n');
    expect(pool).not.toContain('\\n');
  });

  test('has each markdown feature at the shared corpus’s rate, within a factor of two', () => {
    const real = shape(corpusProse());
    const made = shape(pool);
    for (const [feature, rate] of Object.entries(real)) {
      expect(rate, feature).toBeGreaterThan(0);
      expect(made[feature] / rate, feature).toBeGreaterThan(0.5);
      expect(made[feature] / rate, feature).toBeLessThan(2);
    }
  });
});
