import { beforeAll, describe, expect, it } from 'vitest';
import { slugify, uniqueSlugs } from '../src/build/slugs.js';
import { neutralizeBidiBytes } from '../src/views/html/bidi-bytes.js';
import { compact, durationShort, num, when } from '../src/views/html/format.js';
import { escapeHtml } from '../src/views/html/html.js';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderMarkdown } from '../src/views/markdown/markdown.js';

beforeAll(async () => {
  await loadHighlighter();
});

const md = (s: string) => renderMarkdown(s).value;

describe('hostile text on pages (#19)', () => {
  it('drops links that a browser reads as another host', () => {
    for (const target of ['//evil.example/x', '//evil.example\\x', '///evil.example', '/\\evil.example/x']) {
      const out = md(`see [here](<${target}>) and **more**`);
      expect(out, target).not.toMatch(/href/);
      expect(out).toContain('here');
    }
    expect(md('[ref]: //evil.example\n\nsee [x][ref] **b**')).not.toMatch(/href/);
    expect(md('[web](https://example.com/x) **b**')).toContain('href="https://example.com/x"');
  });

  it('shows links to local paths as text: only the web, mail and the page itself are links', () => {
    const local = [
      '/etc/passwd',
      'file:///etc/passwd',
      'FILE:/etc/shadow',
      '../../../.ssh/id_rsa',
      './notes.md',
      'src/index.ts',
      '~/.aws/credentials',
      'C:\\Users\\me\\secrets.txt',
      '\\\\server\\share',
      '/s/a/index.html',
      ' /etc/passwd',
    ];
    for (const target of local) {
      for (const out of [md(`see [the file](<${target}>) and **more**`), md(`see [the file](<${target}>)`)]) {
        expect(out, target).not.toMatch(/<a\b/);
        expect(out, target).toContain('the file');
      }
    }
    expect(md('[ref]: /etc/passwd\n\nsee [x][ref] **b**')).not.toMatch(/<a\b/);
    expect(md('![shot](../../x.png) **b**')).not.toMatch(/<a\b/);
    for (const target of ['https://example.com/x', 'http://a.example/?q=1', 'mailto:me@example.com'])
      expect(md(`[x](${target}) **b**`)).toContain(`href="${target}"`);
    // A footnote's links go within the page.
    expect(md('a note[^1] **b**\n\n[^1]: the note')).toMatch(/href="#user-content-fn-1"/);
  });

  it('shows bidi override and isolate characters as visible marks', () => {
    const trojan = 'if (isAdmin) {\u202E } \u2066// not admin\u2069 {';
    for (const out of [escapeHtml(trojan), md(trojan), md(`**${trojan}**`)]) {
      expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
      expect(out).toContain('⟦U+202E⟧');
      expect(out).toContain('⟦U+2066⟧');
    }
  });

  it('escapes each of & < > " \' once, repairs lone surrogates and marks bidi controls, in one call', () => {
    expect(escapeHtml(`&lt; <a href="x" title='y'>&amp;</a>`)).toBe(
      '&amp;lt; &lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('a\uD800<b\uDC00\u202E"')).toBe('a\uFFFD&lt;b\uFFFD⟦U+202E⟧&quot;');
    expect(escapeHtml('\uD83D\uDE00 & ok')).toBe('\uD83D\uDE00 &amp; ok');
    const plain = 'plain text, nothing to escape';
    expect(escapeHtml(plain)).toBe(plain);
  });

  it('marks the bidi controls of a page’s bytes, within the bytes it is given only', () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    for (const control of ['\u061C', '\u202A', '\u202E', '\u2066', '\u2069']) {
      const whole = utf8(`<p>a — b…</p>${control}<p>c</p>`);
      const mark = `⟦U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`;
      expect(decode(neutralizeBidiBytes(whole))).toBe(`<p>a — b…</p>${mark}<p>c</p>`);
      // A view of part of a larger buffer (as a page's bytes may be): the control after its end is not its own.
      const head = whole.subarray(3, whole.indexOf(0x3c, 4) + 4);
      expect(neutralizeBidiBytes(head)).toBe(head);
      const tail = whole.subarray(3);
      expect(decode(neutralizeBidiBytes(tail))).toBe(`a — b…</p>${mark}<p>c</p>`);
    }
    const plain = utf8('<p>a — b… ← →</p>');
    expect(neutralizeBidiBytes(plain)).toBe(plain);
  });

  it('never names a folder after a Windows device', () => {
    for (const name of ['con', 'CON', 'nul', 'Aux', 'com1', 'LPT9', 'nul.txt', 'prn']) {
      expect(slugify(name)).toMatch(/^_/);
    }
    expect(slugify('console')).toBe('console');
    expect(uniqueSlugs(['con', 'CON'])).toHaveLength(2);
  });

  it('prints an em dash, never NaN or raw text, for times and numbers out of range', () => {
    expect(when('not-a-date')).toBe('—');
    expect(when('2026-02-10T09:14:04.820Z')).toBe('2026-02-10 09:14');
    expect(durationShort(Number.NaN)).toBe('—');
    expect(durationShort(-5)).toBe('—');
    expect(num(Number.POSITIVE_INFINITY)).toBe('—');
    expect(compact(Number.NaN)).toBe('—');
  });
});
