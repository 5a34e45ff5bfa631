import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown } from '../src/views/markdown/markdown.js';
import { markdownPieces } from '../src/views/markdown/markdown-chunks.js';
import { full, seeded } from './helpers/markdown-texts.js';

beforeAll(async () => {
  await loadHighlighter();
});

describe('cutting around fences in containers and HTML', () => {
  it('cuts after a fence in a list item or a quote, and beside HTML that a blank line ends', () => {
    for (const text of [
      '- item\n    ```bash\n    code\n\n    more\n    ```\n\nafter',
      '- item\n\t```\n\tcode\n\nafter',
      '> ```\n> code\n\ntext\n\nmore',
      '- a\n    ```\n\ntext',
      'see `<pre>` and `<!-- x -->` in code\n\ntext',
      '<div>\nx\n\ntext',
    ]) {
      expect(markdownPieces(text).length, text).toBeGreaterThan(1);
      expect(renderMarkdown(text).value, text).toBe(full(text));
    }
  });

  it('does not cut where a fence may be the document’s or an HTML block goes on to its closing tag', () => {
    for (const text of [
      '   ```\ncode\n\ntext\n```',
      '- item\n  <pre>\n\ntext\n</pre>',
      '> <!--\n\ntext\n-->',
      '1. <script>\n\nx',
      ' <?php\n\nx',
      '<div>\n```\n\n```\ncode\n\nx',
      '> <div>\n```\n\n```\ncode\n\nx',
    ])
      expect(markdownPieces(text), text).toEqual([text]);
  });

  it('renders random texts of fences, containers and HTML as the full pipeline does, cut or not', () => {
    const lines = [
      'text',
      '**b** x',
      '- a',
      '1. one',
      '  ```',
      '  ```ts',
      '   ```',
      ' ```',
      '    ```',
      '\t```',
    ]
      .concat(['```', '~~~', '  ~~~', '> ```', '> code', '>', '- ```', '  code', 'code', '<div>', '</div>'])
      .concat(['<pre>', '</pre>', '  <pre>', '- <pre>', '> <!--', '<!--', '-->', '<?x', '?>', '`<pre>` x'])
      .concat(['<script>', '</script>', '- a <!-- b', '<![CDATA[', ']]>', '<!X', '', '', '', '', '  ']);
    const random = seeded(2613);
    let cut = 0;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from(
        { length: 2 + Math.floor(random() * 12) },
        () => lines[Math.floor(random() * lines.length)],
      ).join('\n');
      if (markdownPieces(text).length > 1) cut++;
      expect(renderMarkdown(text).value, JSON.stringify(text)).toBe(full(text));
    }
    expect(cut).toBeGreaterThan(80);
  });
});
