import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { wellFormed } from '../src/views/html/html.js';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown } from '../src/views/markdown/markdown.js';
import { markdownPieces } from '../src/views/markdown/markdown-chunks.js';
import { renderWithMarkdownIt } from '../src/views/markdown/markdown-it.js';
import { full, seeded } from './helpers/markdown-texts.js';

beforeAll(async () => {
  await loadHighlighter();
});

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus/claude-projects');
const FIXTURES = resolve(import.meta.dirname, '../../../fixtures');

/** The text and thinking blocks of the user and assistant records of the transcripts under a folder. */
function messageTexts(dir: string): string[] {
  const out: string[] = [];
  const take = (record: unknown): void => {
    const r = record as { type?: string; message?: { content?: unknown } } | null;
    if (r?.type !== 'user' && r?.type !== 'assistant') return;
    const content = r.message?.content;
    if (typeof content === 'string') out.push(content);
    if (!Array.isArray(content)) return;
    for (const block of content as { type?: string; text?: unknown; thinking?: unknown }[]) {
      if (block?.type === 'text' && typeof block.text === 'string') out.push(block.text);
      if (block?.type === 'thinking' && typeof block.thinking === 'string') out.push(block.thinking);
    }
  };
  const stack = [dir];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
    else if (path.endsWith('.jsonl'))
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        try {
          take(JSON.parse(line));
        } catch {
          // Not a record: nothing to render.
        }
      }
  }
  return out;
}

/** Checks the fast path against the full pipeline on `texts`; returns how many it rendered. */
function checkAll(texts: string[]): number {
  let rendered = 0;
  for (const text of texts) {
    const expected = full(text);
    const simple = renderWithMarkdownIt(wellFormed(text));
    if (simple !== undefined) rendered++;
    if (simple !== undefined) expect(simple, text).toBe(expected);
    expect(renderMarkdown(text).value, text).toBe(expected);
  }
  return rendered;
}

describe('markdown by markdown-it (the fast path)', () => {
  it('renders every message of the fixtures as the full pipeline does', () => {
    const texts = messageTexts(FIXTURES);
    expect(checkAll(texts)).toBeGreaterThan(texts.length / 2);
  });

  it.runIf(existsSync(CORPUS))('renders every message of the shared corpus as the full pipeline does', () => {
    const texts = messageTexts(CORPUS);
    expect(checkAll(texts)).toBeGreaterThan(texts.length / 2);
  });

  it('renders the edge cases of its shapes as the full pipeline does', () => {
    const cases = [
      'hello world',
      'two spaces make a break  \nthe next line',
      'a backslash makes one too\\\nnext',
      'one space or a tab does not \nnext\t\nlast  ',
      'literal \\n and \\d, escaped \\* \\_ \\` \\< \\& \\\\ and a final \\',
      'snake_case_name and a_b',
      'a < b, a & b, 1 > 0',
      '`code` and ``a ` b`` and ` padded ` and ``unclosed',
      '# Title\n\ntext\n## Sub title  \n###### six',
      '#hashtag and #1',
      'text\n```ts\nconst a = 1;\n```\nafter',
      '```\n\n```',
      '```\n\n\nx\n\n```',
      '```\nunclosed\n',
      '```py  meta data\nprint(1)\n```',
      '~~~\nwith ``` inside\n~~~~',
      '```nosuchlang\n<b>x</b>\n```',
      '   indented by three\n  continued',
      '- a\n- b\n\n\nafter',
      '- a\n\n- b',
      '3. x\n4. y',
      'text\n- a\n* b',
      'text\n1) one',
      '**bold**: text (**b**) and **`code`**\n- **a** b\n- `c` **d**',
      'Unicode: Grüße, 日本語 😀 and a trailing no-break space\u00a0',
    ];
    for (const text of cases) {
      expect(renderWithMarkdownIt(text), text).toBeDefined();
      expect(renderWithMarkdownIt(text), text).toBe(full(text));
      expect(renderMarkdown(text).value, text).toBe(full(text));
    }
  });

  it('renders hostile text and every block and inline shape of CommonMark as the full pipeline does', () => {
    for (const text of [
      '<script>alert(1)</script>',
      'a <b>bold</b> <img src=x onerror=alert(1)> <a href="javascript:alert(1)">x</a>',
      '<div onclick="alert(1)">\n*block*\n</div>\n\ntext <!-- c --> and <?php x ?>',
      '[x](javascript:alert(1)) [y](JAVASCRIPT:alert(1)) [z](java\nscript:x) [v](vbscript:x) [d](data:text/html,x)',
      '[f](file:///etc/passwd) [p](/etc/passwd) [r](../x) [s](//evil.example/x) [b](/\\evil) [h](#top) [e](#)',
      '[ok](https://example.com/a?b=1&c=2 "the \\"title\\"") [m](mailto:a) [H](HTTP://example.com) [sp](<a b>)',
      '![a](https://example.com/a.png) ![](x.png) ![*em* `c` b\nc](https://e.example/i.png "t") [![i](u)](https://l.example)',
      'see https://example.com/path/to-x and HTTPS://EXAMPLE.COM but `https://in.code`',
      '*em* and _em_ and ***both*** and **a **b and *a **b** c* and **`code`**',
      '- a\n  - nested\n    1. deeper\n\n       para\n- b',
      '- a\n  indented text',
      'text\n2. not a list',
      '- # heading in an item',
      '> quote\n> - list in a quote\n>   > nested quote\n>\n> ```js\n> code();\n> ```\nlazy',
      '| a | `b \\| c` | d |\n|:--|:-:|--:|\n| 1 | 2 \\| 3 | <b> |\n| only one |',
      'title\n===\nsub\n---\n***\n___',
      '    indented code\n\n\tby a tab',
      '&amp; and &#60; &#x3C;script&#x3E; &nope; &copy; &#0; &#xD800;',
      'a `span\nover two lines` and ``a ` b``',
      '# C#\n## closed ##\n#no',
      '```ts`\nx\n```',
      'a [x] b and [ ] c',
      '1. one\n1. two\n\n\n3) three\n4) four',
      '* a\n\n  b\n* c',
      '<mailto:x> <foo:bar> <made up>',
      '\\*not em\\* \\<b> \\[x](y) \\` a\\\nbreak  \nbreak',
    ]) {
      expect(renderWithMarkdownIt(text), text).toBeDefined();
      expect(renderWithMarkdownIt(text), text).toBe(full(text));
      expect(renderMarkdown(text).value, text).toBe(full(text));
    }
  });

  it('leaves to the full pipeline what GFM or micromark read otherwise', () => {
    for (const text of [
      'see www.example.com',
      '<https://auto.example>',
      'mail a@example.com',
      'see https://example.com/x. or (https://example.com/y)',
      '~~gone~~ and ~one~',
      '- [ ] task\n- [x] done',
      'a[^1]\n\n[^1]: note',
      '[x]\n\n[x]: https://example.com',
      'a\r\nb',
      'a\t  \nb',
      'x\n- *',
      '- \n- b',
      'a*b*c',
      '    code\n\n2. two',
      '- <pre>\n  x',
      '```c\\+\\+\nx\n```',
      '``   ``',
      '- [ ]\n- [x]\tb',
      '  ```ts\ncode\n  ',
    ]) {
      expect(renderWithMarkdownIt(text), text).toBeUndefined();
      expect(renderMarkdown(text).value, text).toBe(full(text));
    }
  });

  it('agrees with the full pipeline on random texts made of its syntax', () => {
    const parts = [
      'a',
      'word',
      ' ',
      '  ',
      '\t',
      '\n',
      '\n\n',
      '\\',
      '`',
      '``',
      '```',
      '~~~',
      '#',
      '# ',
      '## ',
      '_',
    ]
      .concat([
        'x_y',
        '&',
        '& ',
        '<',
        '< ',
        '>',
        '*',
        '-',
        '1.',
        ' \n',
        '  \n',
        '\\\n',
        'ts',
        'é',
        '日本',
        '"',
        '!',
      ])
      .concat([']', '    ', '   ', '=', '\u00a0', '```ts\n', '\n```\n', 'const a = 1;', ':', '/', ' \t']);
    const random = seeded(26);
    let rendered = 0;
    for (let n = 0; n < 2500; n++) {
      let text = '';
      for (let k = 1 + Math.floor(random() * 14); k > 0; k--)
        text += parts[Math.floor(random() * parts.length)];
      const simple = renderWithMarkdownIt(wellFormed(text));
      if (simple === undefined) continue;
      rendered++;
      expect(simple, JSON.stringify(text)).toBe(full(text));
    }
    expect(rendered).toBeGreaterThan(600);
  });
});

describe('strong emphasis by markdown-it', () => {
  it('pairs `**` runs as the full pipeline does, next to spaces, punctuation, code and other runs', () => {
    const edges = ['', ' ', '(', ')', ':', '.', ',', '`', 'a', '\n', '"', '-', '\\', 'é', '_'];
    const inner = ['x', 'x y', '`c`', 'a:', ':a', ' x', 'x ', '(x)', 'x\ny', 'é', '**', 'a**b', '\\*'];
    const random = seeded(7);
    const pick = (list: string[]) => list[Math.floor(random() * list.length)] ?? '';
    let strong = 0;
    for (let n = 0; n < 3000; n++) {
      let text = '';
      for (let k = 1 + Math.floor(random() * 4); k > 0; k--)
        text += `${pick(['', 'w ', '- ', '1. '])}${pick(edges)}**${pick(inner)}${pick(['**', '**', '*', ''])}${pick(edges)}${pick([' ', '\n', '\n\n', ''])}`;
      const simple = renderWithMarkdownIt(wellFormed(text));
      if (simple === undefined) continue;
      if (simple.includes('<strong>')) strong++;
      expect(simple, JSON.stringify(text)).toBe(full(text));
    }
    expect(strong).toBeGreaterThan(30);
  });
});

describe('markdown cut into pieces', () => {
  it('renders texts made of blocks of every kind as the full pipeline does, cut or not', () => {
    const lines = [
      'text',
      '**b** x',
      '- a',
      '- b',
      '* c',
      '1. one',
      '2. two',
      '  - nested',
      '   more',
      '    code',
    ]
      .concat([
        '```',
        '```ts',
        '~~~',
        '````',
        '> quote',
        '| a | b |',
        '|---|---|',
        '# h',
        'title',
        '===',
        '---',
      ])
      .concat(['', '', '', '  ', 'a  ', 'x\\', 'www.a.com', '\t- tab', 'lazy', '1) p', '+ plus', '- ```'])
      .concat(['   ```', '    ```', '<div>', '<!--', '-->', 'see [x]', '[x]: https://example.com', '```js`']);
    const random = seeded(31);
    let cut = 0;
    for (let n = 0; n < 1500; n++) {
      const text = Array.from(
        { length: 2 + Math.floor(random() * 12) },
        () => lines[Math.floor(random() * lines.length)],
      );
      if (markdownPieces(text.join('\n')).length > 1) cut++;
      expect(renderMarkdown(text.join('\n')).value, JSON.stringify(text)).toBe(full(text.join('\n')));
    }
    expect(cut).toBeGreaterThan(60);
  });

  it('does not cut where a block may go on after a blank line', () => {
    for (const text of [
      '- a\n\n- b',
      '- a\n\n  more of a',
      '```\na\n\nb\n```',
      '<!--\n\n-->',
      '[x]\n\n[x]: https://example.com',
      'a[^1]\n\n[^1]: note',
      '- item\n  ```\n  code\n```\n\nafter',
      '<div>\n```\n\ntext',
      '```\ncode\n  ```\n\n<div>\n```\n\ntext',
    ])
      expect(markdownPieces(text), text).toEqual([text]);
    expect(markdownPieces('# a\n\ntext\n\n- x\n- y\n\nend')).toEqual(['# a\n', 'text\n\n- x\n- y\n', 'end']);
  });
});
