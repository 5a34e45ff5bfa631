import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown } from '../src/views/markdown/markdown.js';
import { renderWithMarkdownIt } from '../src/views/markdown/markdown-it.js';
import { full, seeded } from './helpers/markdown-texts.js';

beforeAll(async () => {
  await loadHighlighter();
});

/** Pieces of hostile and tricky markdown, put together at random below. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<div id="x" name="y">',
  '</div>',
  '<!-- c -->',
  '<style>body{}</style>',
  '[j](javascript:alert(1))',
  '[J](JaVaScRiPt:alert(1))',
  '[d](data:text/html;base64,PHNjcmlwdD4=)',
  '[p](/etc/passwd)',
  '[f](file:///c:/x)',
  '[h](//evil.example)',
  '[b](/\\evil.example)',
  '[w](https://example.com/a_b?c=1&d=2)',
  '[t](https://example.com "a \\"title\\" & more")',
  '[#](#frag)',
  '![alt *em*](https://example.com/i.png)',
  '![x](javascript:alert(1))',
  '&amp; &lt;b&gt; &#106;avascript: &#x3C;script&#x3E; &bogus; &#0;',
  '*a **b** c*',
  '***x*** **y*',
  '_a_ __b__ snake_case',
  '`code <b>` and ``a`b``',
  '\\<b> \\*x\\* \\[y](z)',
  'see https://example.com/path/to for it',
  'x  ',
  'y\\',
]
  .concat(['- item', '  - nested', '1. one', '2) two', '> quote', '> - list in a quote', '> > deeper', '>'])
  .concat(['| a | `b \\| c` |', '|---|:-:|', '| `x|y` | <b> |', '| 1 |'])
  .concat([
    '```js',
    'const a = "<b>";',
    '```',
    '~~~',
    '    indented code',
    '# heading <i>',
    'title',
    '===',
    '---',
    '',
  ]);

describe('markdown-it against the full pipeline on hostile text', () => {
  it('renders random mixes of tags, bad links, entities, emphasis, quotes, lists and tables with the same bytes', () => {
    const random = seeded(2026);
    let taken = 0;
    for (let n = 0; n < 2000; n++) {
      const lines = Array.from(
        { length: 1 + Math.floor(random() * 10) },
        () => HOSTILE[Math.floor(random() * HOSTILE.length)] ?? '',
      );
      const text = lines.join(random() < 0.8 ? '\n' : ' ');
      const expected = full(text);
      const fast = renderWithMarkdownIt(text);
      if (fast !== undefined) {
        taken++;
        expect(fast, JSON.stringify(text)).toBe(expected);
      }
      expect(renderMarkdown(text).value, JSON.stringify(text)).toBe(expected);
    }
    expect(taken).toBeGreaterThan(1000);
  });

  it('never writes markup, scripts, ids, names or links off the web from the text', () => {
    const random = seeded(17);
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 8 }, () => HOSTILE[Math.floor(random() * HOSTILE.length)] ?? '').join(
        '\n',
      );
      const html = renderWithMarkdownIt(text);
      if (html === undefined) continue;
      // Text is escaped (`&#x3C;`): every `<` opens a tag this path wrote.
      for (const [, name, attributes] of html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/g)) {
        expect(name, text).toMatch(
          /^(?:p|h[1-6]|ul|ol|li|blockquote|pre|code|span|em|strong|a|br|hr|table|thead|tbody|tr|th|td)$/,
        );
        expect(attributes, text).not.toMatch(/\s(?:id|name|on\w+|src)=/i);
      }
      for (const [, href] of html.matchAll(/<a href="([^"]*)"/g))
        expect(href, text).toMatch(/^(?:https?:\/\/|mailto:|#.)/i);
    }
  });
});
