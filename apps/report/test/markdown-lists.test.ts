import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown } from '../src/views/markdown/markdown.js';
import { renderWithMarkdownIt } from '../src/views/markdown/markdown-it.js';
import { full, seeded } from './helpers/markdown-texts.js';

beforeAll(async () => {
  await loadHighlighter();
});

describe('lists by markdown-it (the fast path)', () => {
  it('renders items with lazy lines, and lists that a heading or a fence ends, as the full pipeline does', () => {
    for (const text of [
      '- a\nlazy text',
      '- a **b**\nlazy `c`\n- d\nmore  \nand more',
      '1. a\nb\n2. c\nd',
      '- a\n\n- b\nlazy\n\nafter',
      '- a\n## heading\ntext',
      '- a\nb\n# heading',
      '- a\n```ts\nconst a = 1;\n```',
      '- a\n~~~\ncode\n~~~\n- b',
      '- a\n#tag is lazy text',
      '* a\nb\n- c\nd',
    ]) {
      expect(renderWithMarkdownIt(text), text).toBeDefined();
      expect(renderWithMarkdownIt(text), text).toBe(full(text));
    }
  });

  it('renders what may belong to an item otherwise as the full pipeline does', () => {
    for (const text of [
      '- a\n  indented',
      '- a\n> quote',
      '- a\n---',
      '- a\n    code',
      '- a\n<div>',
      '- a\n# ',
      '- a\n```ts`',
    ])
      expect(renderWithMarkdownIt(text), text).toBe(full(text));
  });

  it('agrees with the full pipeline on random texts of list items, lazy lines and the blocks around them', () => {
    const items = [
      '- a',
      '- **b** c',
      '* c',
      '+ d',
      '1. one',
      '2. two',
      '1) p',
      '- `c` x',
      '-  two spaces',
      '- ',
    ];
    const lazy = [
      'lazy',
      'lazy  ',
      'x\\',
      'a**',
      '**a',
      '**x** y',
      '`c`',
      '#tag',
      'text',
      'b_c',
      'a & b',
      '< x',
    ];
    const others = [
      '# h',
      '## h `c`',
      '# ',
      '```',
      '```ts',
      '~~~',
      '```js`',
      'const a = 1;',
      '',
      '',
      '',
    ].concat([
      '  indented',
      '   three',
      '    code',
      '\tx',
      '---',
      '***',
      '===',
      '> q',
      '-',
      '2.',
      '<div>',
      '| a |',
    ]);
    const random = seeded(2611);
    let rendered = 0;
    let lazyItems = 0;
    for (let n = 0; n < 4000; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 10) }, () => {
        const r = random();
        const kind = r < 0.35 ? items : r < 0.7 ? lazy : others;
        return kind[Math.floor(random() * kind.length)];
      }).join('\n');
      const expected = full(text);
      const simple = renderWithMarkdownIt(text);
      if (simple !== undefined) {
        rendered++;
        if (/<li>[^\n]*\n(?!<\/?(?:li|ul|ol|p)>)/.test(simple)) lazyItems++;
        expect(simple, JSON.stringify(text)).toBe(expected);
      }
      expect(renderMarkdown(text).value, JSON.stringify(text)).toBe(expected);
    }
    expect(rendered).toBeGreaterThan(800);
    expect(lazyItems).toBeGreaterThan(200);
  });
});
