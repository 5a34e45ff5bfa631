import { activeEntries } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { renderTranscript } from '../src/views/transcript/render-card.js';
import { numberedLines, renderNumbered } from '../src/views/transcript/render-output.js';
import { transcriptContext } from '../src/views/transcript/transcript.js';
import { answer, prompt, sessionOf, toolResult, toolUse } from './helpers/records.js';

const links = { sidechain: () => null, branch: () => '#' };

describe('a file read with its line numbers', () => {
  it('takes the numbers out of the text into a gutter', () => {
    const text = '    41→const a = 1;\n    42→\tindented\n    43→<b>x</b>\n';
    expect(numberedLines(text)).toEqual([
      { n: '41', line: 'const a = 1;' },
      { n: '42', line: '\tindented' },
      { n: '43', line: '<b>x</b>' },
    ]);
    const html = renderNumbered(text).value;
    expect(html).toContain('<span class="ln" data-n="41"></span>const a = 1;');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('→');
    // tab-separated numbers (`cat -n`) too
    expect(numberedLines('     1\tdef f():\n     2\t    pass')?.map((l) => l.n)).toEqual(['1', '2']);
  });

  it('leaves text that is not numbered as it is', () => {
    expect(numberedLines('hello\n1→ world')).toBeNull();
    expect(renderNumbered('hello').value).toBe('<pre class="out">hello</pre>');
  });

  it('shows a long file a preview first, the rest on request, each line once', () => {
    const text = Array.from({ length: 40 }, (_, i) => `${String(i + 1).padStart(6)}→line ${i + 1}`).join(
      '\n',
    );
    const html = renderNumbered(text).value;
    expect(html.match(/class="ln"/g)).toHaveLength(40);
    expect(html).toContain('Show all (40 lines)');
  });

  it("shows a Read call's result with the gutter in its card", async () => {
    //   p → c (Read) → r (its result) → a
    const s = await sessionOf([
      prompt('p', null),
      answer('c', 'p', [toolUse('tu', 'Read', { file_path: '/x.ts' })]),
      toolResult('r', 'c', 'tu', '     1\tone\n     2\ttwo\n'),
      answer('a', 'r', 'done'),
    ]);
    const entries = activeEntries(s);
    const html = renderTranscript(entries, transcriptContext(s, entries), links).value;
    expect(html).toContain('<span class="ln" data-n="2"></span>two');
    expect(html).not.toMatch(/ {5}1\tone/);
  });
});
