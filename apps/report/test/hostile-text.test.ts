import { beforeAll, describe, expect, it } from 'vitest';
import { slugify, uniqueSlugs } from '../src/build/slugs.js';
import { compact, durationShort, num, when } from '../src/views/format.js';
import { loadHighlighter } from '../src/views/highlight.js';
import { escapeHtml } from '../src/views/html.js';
import { renderMarkdown } from '../src/views/markdown.js';

beforeAll(async () => {
  await loadHighlighter();
});

const md = (s: string) => renderMarkdown(s).value;

describe('hostile text on pages (#19)', () => {
  it('drops links that a browser reads as another host, keeps links inside the site', () => {
    for (const target of ['//evil.example/x', '//evil.example\\x', '///evil.example']) {
      const out = md(`see [here](<${target}>) and **more**`);
      expect(out, target).not.toMatch(/href/);
      expect(out).toContain('here');
    }
    // A backslash after a slash is percent-encoded by the markdown parser: a path of the site, not a host.
    expect(md('[x](/\\evil.example/x) **b**')).toContain('href="/%5Cevil.example/x"');
    expect(md('[ref]: //evil.example\n\nsee [x][ref] **b**')).not.toMatch(/href/);
    expect(md('[page](/s/a/index.html) **b**')).toContain('href="/s/a/index.html"');
    expect(md('[web](https://example.com/x) **b**')).toContain('href="https://example.com/x"');
  });

  it('shows bidi override and isolate characters as visible marks', () => {
    const trojan = 'if (isAdmin) {\u202E } \u2066// not admin\u2069 {';
    for (const out of [escapeHtml(trojan), md(trojan), md(`**${trojan}**`)]) {
      expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
      expect(out).toContain('⟦U+202E⟧');
      expect(out).toContain('⟦U+2066⟧');
    }
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
