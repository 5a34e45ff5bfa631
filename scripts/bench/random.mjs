// Deterministic randomness and text for the generators: the same seed always gives the same bytes.

/** mulberry32: small, fast, deterministic; returns a function giving numbers in [0, 1). */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS =
  'the a function return const value file read write test error handle session config branch agent tool result compact token cache build page line parse graph node edge path query index async await import export module type interface class method string number array object map set'.split(
    ' ',
  );

/**
 * A pool of text to slice from (generating words one by one would dominate the generator's time), shaped like the
 * prose of real transcripts: the shared corpus's text has, per KB, about 15–22 line breaks, 5.5 list items (a
 * quarter of them nested), 5.4 inline code spans, 3.4 bold spans, 0.8 headings, 0.5 quoted lines, 0.3 table rows,
 * 0.3 tags, 0.16 fenced code blocks (most with a language), and a few links, web addresses and single emphases.
 * Lists are runs of items ended by a blank line, as in real text (a line of words right after an item, which
 * markdown reads as the item's own, is rare there). `scripts/test/calibrated-text.test.mjs` holds the rates.
 */
export function textPool(random, size) {
  const parts = [];
  let length = 0;
  let inList = false;
  const push = (piece) => {
    parts.push(piece);
    length += piece.length;
  };
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  while (length < size) {
    const word = pick();
    const style = random();
    if (style < 0.033) push(`\`${word}\``);
    else if (style < 0.053) push(`**${word}**`);
    else if (style < 0.0533) push(`*${word}*`);
    else if (style < 0.0537) push(`[${word}](src/${pick()}.ts)`);
    else if (style < 0.054) push(`https://example.org/${word}`);
    else if (style < 0.056) push(`\`Map<${word}>\``);
    else push(word);
    if (random() >= 0.1) {
      push(' ');
      continue;
    }
    const line = random();
    if (line < 0.012) {
      push(codeBlock(random));
      inList = false;
    } else if (line < 0.017) {
      push(table(pick));
      inList = false;
    } else if (inList ? line < 0.35 : line < 0.3) {
      push('\n\n');
      inList = false;
    } else push('\n');
    const start = random();
    if (inList ? start >= 0.004 : start < 0.19) {
      push(random() < 0.22 ? '  - ' : '- ');
      inList = true;
    } else if (inList) continue;
    else if (start < 0.26) push('## ');
    else if (start < 0.31) push('> ');
  }
  return parts.join('');
}

/** A small table (a header, its rule and two rows) between blank lines. */
function table(pick) {
  const row = () => `| ${pick()} | ${pick()} ${pick()} |`;
  return `\n\n${row()}\n| --- | --- |\n${row()}\n${row()}\n\n`;
}

/** A fenced code block of a few lines, with a language most of the time, between line breaks. */
function codeBlock(random) {
  const language = ['ts', 'ts', 'bash', 'json', ''][Math.floor(random() * 5)];
  const lines = [];
  for (let i = 1 + Math.floor(random() * 6); i > 0; i--) {
    const words = [];
    for (let j = 2 + Math.floor(random() * 6); j > 0; j--)
      words.push(WORDS[Math.floor(random() * WORDS.length)]);
    lines.push(`  ${words.join('.')}();`);
  }
  return `\n\n\`\`\`${language}\n${lines.join('\n')}\n\`\`\`\n\n`;
}

export function uuidFrom(random) {
  const hex = () =>
    Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  const a = hex() + hex() + hex() + hex();
  return `${a.slice(0, 8)}-${a.slice(8, 12)}-4${a.slice(13, 16)}-a${a.slice(17, 20)}-${a.slice(20, 32)}`;
}
