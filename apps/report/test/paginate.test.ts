import { activeEntries } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { isResultOnly, transcriptCards } from '../src/views/transcript/cards.js';
import { pageAt, pagerWindow, transcriptPages } from '../src/views/transcript/paginate.js';
import { renderTranscript } from '../src/views/transcript/render-card.js';
import { transcriptContext } from '../src/views/transcript/transcript.js';
import { answer, progress, prompt, sessionOf, system, toolResult, toolUse } from './helpers/records.js';

/** A turn: a prompt, one response split over a thinking line and a tool call, its result, progress, an answer. */
function turn(n: number, parent: string | null, progressLines = 0): object[] {
  const p = `p${n}`;
  const lines: object[] = [prompt(p, parent)];
  lines.push(answer(`t${n}`, p, [{ type: 'thinking', thinking: 'hm', signature: 's' }], `m${n}`));
  lines.push(answer(`c${n}`, `t${n}`, [toolUse(`tu${n}`, 'Bash', { command: 'ls' })], `m${n}`));
  let last = `c${n}`;
  for (let i = 0; i < progressLines; i++) {
    lines.push(progress(`g${n}-${i}`, last));
    last = `g${n}-${i}`;
  }
  lines.push(toolResult(`r${n}`, `c${n}`, `tu${n}`));
  lines.push(answer(`a${n}`, `r${n}`, `done ${n}`, `n${n}`));
  lines.push(system(`h${n}`, `a${n}`));
  return lines;
}

function turns(count: number, progressLines = 0): object[] {
  const lines: object[] = [];
  for (let n = 0; n < count; n++) lines.push(...turn(n, n === 0 ? null : `h${n - 1}`, progressLines));
  return lines;
}

describe('cards', () => {
  it('makes one card of a split response, its folded result and the records after it', async () => {
    // p0 → t0 (m0: thinking) → c0 (m0: tool_use) → g0-0, g0-1 (progress) ; c0 → r0 (result) → a0 (n0) → h0 (hook)
    const entries = activeEntries(await sessionOf(turns(1, 2)));
    const cards = transcriptCards(entries, isResultOnly);
    expect(cards.map((c) => c.entries.map((e) => e.uuid))).toEqual([
      ['p0'],
      ['t0', 'c0', 'g0-0', 'g0-1', 'r0'],
      ['a0', 'h0'],
    ]);
  });

  it('renders the records as a count and a fold-out inside their card, every entry keeping its anchor', async () => {
    const s = await sessionOf(turns(1, 2));
    const entries = activeEntries(s);
    const html = renderTranscript(entries, transcriptContext(s, entries), {
      sidechain: () => null,
      branch: () => '#',
    }).value;
    expect(html.match(/<article /g)).toHaveLength(3);
    expect(html).toContain('<details class="records"><summary>2 records: 2 progress</summary>');
    expect(html).toContain('<summary>1 record: 1 hook</summary>');
    for (const e of entries) expect(html.split(`id="e-${e.uuid}"`)).toHaveLength(2);
    // the fold-outs are inside the cards: no record between two cards
    expect(html).not.toMatch(/<\/article>\s*<details/);
  });
});

describe('transcriptPages', () => {
  it('cuts pages between turns, by cards, whatever the number of progress records', async () => {
    // 10 turns of 3 cards each (prompt, response, answer); 40 progress lines in each turn weigh nothing.
    const entries = activeEntries(await sessionOf(turns(10, 40)));
    const pages = transcriptPages(entries, 7);
    // 7 cards a page: two turns (6 cards) fit, a third would not.
    expect(pages).toHaveLength(5);
    for (const p of pages) expect(entries[p.start]?.kind).toBe('prompt');
    expect(pages[pages.length - 1]?.end).toBe(entries.length);
    expect(pageAt(pages, 0)).toBe(1);
    expect(pageAt(pages, entries.length - 1)).toBe(5);
    expect(pageAt(pages, pages[2]!.start)).toBe(3);
    expect(pageAt(pages, pages[2]!.start - 1)).toBe(2);
  });

  it('cuts a turn longer than a page between two cards, never inside one', async () => {
    const entries = activeEntries(await sessionOf(turns(1, 3)));
    const pages = transcriptPages(entries, 2);
    expect(pages.map((p) => entries[p.start]?.uuid)).toEqual(['p0', 'a0']);
  });

  it('always has one page', () => {
    expect(transcriptPages([])).toEqual([{ number: 1, start: 0, end: 0 }]);
  });

  it('shows first, last and neighbours with gaps', () => {
    expect(pagerWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pagerWindow(10, 20)).toEqual([1, 0, 8, 9, 10, 11, 12, 0, 20]);
  });
});
