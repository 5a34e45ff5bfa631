import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown, renderMarkdownWith } from '../src/views/markdown/markdown.js';

beforeAll(async () => {
  await loadHighlighter();
});

const md = (s: string) => renderMarkdown(s).value;

describe('renderMarkdown', () => {
  it('shows raw HTML as text, never as markup', () => {
    const out = md('<script>alert(1)</script> hi');
    expect(out).not.toContain('<script');
    expect(out).toContain('&#x3C;script>');
  });
  it('drops javascript: and data: link targets', () => {
    expect(md('[x](javascript:alert(1))')).not.toMatch(/href="javascript/i);
    expect(md('[x](JaVaScRiPt:alert(1))')).not.toMatch(/href/i);
    expect(md('[x](data:text/html;base64,PHNjcmlwdD4=)')).not.toMatch(/href/);
    expect(md('[x](vbscript:msgbox)')).not.toMatch(/href/);
  });
  it('turns images into links and never emits <img>', () => {
    expect(md('![a](data:image/png;base64,AAA)')).not.toContain('<img');
    const out = md('![chart](https://example.com/a.png)');
    expect(out).not.toContain('<img');
    expect(out).toContain('href="https://example.com/a.png"');
    expect(out).toContain('[image: chart]');
  });
  it('neutralizes event handlers and svg payloads', () => {
    for (const s of [
      '<img src=x onerror=alert(1)>',
      '<svg onload=alert(1)>',
      '<a href="#" onclick="alert(1)">x</a>',
      '<iframe src="https://e.com"></iframe>',
    ]) {
      const out = md(s);
      expect(out).not.toMatch(/<(img|svg|iframe|a)\b/);
      expect(out).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    }
  });
  it('keeps GFM and highlights fenced code', () => {
    expect(md('| a | b |\n|---|---|\n| 1 | 2 |')).toContain('<table>');
    const code = md('```ts\nconst a: number = 1;\n```');
    expect(code).toContain('class="shiki');
    expect(code).toContain('var(--shiki-token-keyword)');
    expect(md('```nosuchlang\n<b>x</b>\n```')).toContain('&#x3C;b>x&#x3C;/b>');
  });
  it('repairs lone surrogates and clips huge text', () => {
    expect(md('a \uD800 b')).toContain('\uFFFD');
    const out = md('x'.repeat(150_000));
    expect(out).toContain('more characters not shown');
  });
});

describe('the plain-text fast path', () => {
  it('renders text without markdown syntax exactly as the full pipeline does', () => {
    const samples = [
      'hello world',
      'Two lines\nin one paragraph',
      'First paragraph.\n\nSecond one, with "quotes" and \'apostrophes\'.',
      '  indented a bit\n\n\n\nmany blank lines  ',
      'Unicode: Grüße, 日本語, emoji 😀',
      'Run the tests, then commit (if green).',
      'a = b + c; x - y; 3.14 is pi; 100% sure',
    ];
    for (const s of samples)
      expect(renderMarkdownWith(s, true).value, s).toBe(renderMarkdownWith(s, false).value);
  });
});

describe('the pipeline without GFM', () => {
  it('is only skipped for text GFM would not read differently', () => {
    const samples = [
      'Some **bold** and `code` and a [link](https://example.com).',
      '# Title\n\n- a\n- b\n\n1. one\n2. two\n\n> quote',
      '```ts\nconst x = 1;\n```',
      'Escapes \\* and _under_ and <b>html</b> & entities &amp;',
    ];
    for (const s of samples) {
      const fast = renderMarkdown(s).value;
      expect(fast).toBe(renderMarkdownWith(s, false).value);
    }
    expect(renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |').value).toContain('<table>');
    expect(renderMarkdown('~~gone~~').value).toContain('<del>');
    expect(renderMarkdown('see www.example.com').value).toContain('href="http://www.example.com"');
  });
});
