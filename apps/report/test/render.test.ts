import { activeEntries, branchEntries, sidechainEntries } from '@cctrail/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../src/views/html/format.js';
import { clip, escapeHtml, html, trusted, wellFormed } from '../src/views/html/html.js';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import { renderEntry, renderImage } from '../src/views/transcript/render.js';
import { renderTranscript } from '../src/views/transcript/render-card.js';
import { FULL_OUTPUT_CAP, renderOutput } from '../src/views/transcript/render-output.js';
import { isFoldedResult, toolSummary, transcriptContext } from '../src/views/transcript/transcript.js';
import { demoSession } from './helpers/demo.js';

beforeAll(async () => {
  await loadHighlighter();
});

const links = {
  sidechain: (id: string) => `agent/${id}/index.html`,
  branch: (i: number) => `branch/${i + 1}/index.html`,
};

describe('html', () => {
  it('escapes interpolations and keeps trusted HTML', () => {
    expect(html`<p title="${'"x"'}">${'<b>'}${trusted('<i>ok</i>')}</p>`.value).toBe(
      '<p title="&quot;x&quot;">&lt;b&gt;<i>ok</i></p>',
    );
    expect(html`${['<', '>']}${null}${false}${0}`.value).toBe('&lt;&gt;0');
  });
  it('repairs lone surrogates', () => {
    expect(wellFormed('a\uD800b\uDC00c\uD83D\uDE00')).toBe('a\uFFFDb\uFFFDc\uD83D\uDE00');
    expect(escapeHtml('\uDFFF<')).toBe('\uFFFD&lt;');
  });
  it('clips without splitting a surrogate pair', () => {
    expect(clip('ab\uD83D\uDE00', 3)).toEqual({ head: 'ab', truncated: true, length: 4 });
  });
});

describe('renderOutput', () => {
  it('shows short outputs whole, escaped', () => {
    expect(renderOutput('<script>x</script>').value).toBe(
      '<pre class="out">&lt;script&gt;x&lt;/script&gt;</pre>',
    );
  });
  it('cuts long outputs with a show-all holding the rest, capped, saying how much was cut', () => {
    const long = `${'line\n'.repeat(100)}${'y'.repeat(FULL_OUTPUT_CAP)}`;
    const out = renderOutput(long).value;
    expect(out).toContain('<details class="more"><summary>Show all (');
    expect(out).toContain('not shown: outputs are capped at 195.3 KB');
    expect(out.length).toBeLessThan(FULL_OUTPUT_CAP + 10_000);
  });
});

describe('renderImage', () => {
  it('inlines allowed media types with a valid base64 payload', () => {
    expect(renderImage('image/png', 'iVBORw0KGgo=', 8).value).toContain(
      'src="data:image/png;base64,iVBORw0KGgo="',
    );
  });
  it('refuses other types and malformed payloads', () => {
    expect(renderImage('image/svg+xml', 'PHN2Zz4=', 8).value).not.toContain('<img');
    expect(renderImage('text/html', 'PHNjcmlwdD4=', 8).value).not.toContain('<img');
    expect(renderImage('image/png', '" onerror="alert(1)', 8).value).not.toContain('<img');
    expect(renderImage('image/png', null, 8).value).toContain('not shown');
  });
});

describe('transcript', () => {
  it('selects the active path, a sidechain and a branch', () => {
    const s = demoSession();
    expect(activeEntries(s).map((e) => e.uuid)).toEqual([
      'u1',
      'a1',
      'r1',
      'a2',
      'u2b',
      'a3',
      'r2',
      'a4',
      'c1',
      'cs',
      'u3',
      'a5',
      'r5',
      'a6',
      'r6',
      'a7',
    ]);
    expect(sidechainEntries(s, 'agent-x1').map((e) => e.uuid)).toEqual(['s1', 's2', 's3', 's4']);
    expect(branchEntries(s, s.branches[0] as never).map((e) => e.uuid)).toEqual(['u2a', 'a3a']);
  });

  it('pairs tool calls with their results and folds result entries', () => {
    const s = demoSession();
    const entries = activeEntries(s);
    const ctx = transcriptContext(s, entries);
    const r1 = entries.find((e) => e.uuid === 'r1');
    expect(r1 && isFoldedResult(r1, ctx)).toBe(true);
    const html = renderTranscript(entries, ctx, links).value;
    expect(html).toContain('<span class="anchor-only" id="e-r1"></span>');
    // The result is shown with its call; its entry's anchor is the only element with its id.
    expect(html).toContain('<div class="tool__result">');
    expect(html.split('id="e-r1"').length - 1).toBe(1);
    expect(html).toContain('tool--error');
    expect(html).toContain('href="agent/agent-x1/index.html"');
    expect(html).toContain('href="branch/1/index.html"');
    expect(html).toContain('Compaction (auto) · 185,000 → 21,000 tokens');
    expect(html).toContain('<details class="thinking">');
    expect(html).not.toMatch(/<script|<img[^>]*onerror/);
  });

  it('renders a compaction boundary as a separator', () => {
    const s = demoSession();
    const c1 = s.entries.find((e) => e.uuid === 'c1');
    expect(c1 && renderEntry(c1, transcriptContext(s, s.entries), links).value).toMatch(
      /^<div class="compaction" id="e-c1" role="separator">/,
    );
  });

  it('summarizes tool inputs', () => {
    expect(toolSummary('Read', { file_path: '/a/b.ts' })).toBe('/a/b.ts');
    expect(toolSummary('Bash', { command: 'ls\nrm' })).toBe('ls');
    expect(toolSummary('TodoWrite', { todos: [1, 2] })).toBe('2 todos');
    expect(toolSummary('X', null)).toBe('');
  });

  it('formats durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_300)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 5 s');
    expect(formatDuration(7_380_000)).toBe('2 h 3 min');
  });
});
