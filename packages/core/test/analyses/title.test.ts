import { describe, expect, it } from 'vitest';
import { contextTokens, emptyUsage, totalTokens } from '../../src/graph/usage.js';
import { sessionTitle } from '../../src/index.js';
import { prompt, sessionOf } from '../helpers.js';

describe('titles', () => {
  it('stores the first prompt without tags as one line of at most 120 characters', async () => {
    const s = await sessionOf([
      prompt('p', null, `<command-message>go</command-message>\n  fix   ${'y'.repeat(200)}`),
    ]);
    expect(s.title).toBe(`go fix ${'y'.repeat(112)}…`);
    expect(s.title).toHaveLength(120);
  });

  it('falls back to the latest summary line of its own leaf, and is null without either', async () => {
    const summary = (text: string, leafUuid = 'x') => ({ type: 'summary', summary: text, leafUuid });
    const meta = {
      type: 'user',
      uuid: 'x',
      parentUuid: null,
      isMeta: true,
      message: { role: 'user', content: '<local-command-stdout>ok</local-command-stdout>' },
    };
    expect((await sessionOf([summary('Old'), summary('  New\n title '), meta])).title).toBe('New title');
    expect((await sessionOf([summary(' '), meta])).title).toBeNull();
    // A summary of another session's leaf does not title this file.
    expect((await sessionOf([summary('Elsewhere', 'y')])).title).toBeNull();
  });

  it('shows the title, else the first prompt, else the id', () => {
    expect(sessionTitle({ id: 'a1', title: 'Fix  the\ncart', firstPrompt: 'ignored' })).toBe('Fix the cart');
    expect(sessionTitle({ id: 'a1', title: null, firstPrompt: ` ${'z'.repeat(130)}` })).toBe(
      `${'z'.repeat(119)}…`,
    );
    expect(sessionTitle({ id: 'a1', title: '', firstPrompt: 'ignored' })).toBe('a1');
    expect(sessionTitle({ id: 'a1', title: null, firstPrompt: null })).toBe('a1');
  });
});

describe('token totals', () => {
  it('sum every token kind, or the context without the output', () => {
    const u = {
      ...emptyUsage(),
      inputTokens: 1,
      outputTokens: 20,
      cacheCreationInputTokens: 300,
      cacheReadInputTokens: 4000,
    };
    expect(totalTokens(u)).toBe(4321);
    expect(contextTokens(u)).toBe(4301);
    expect(totalTokens(null)).toBe(0);
    expect(contextTokens(undefined)).toBe(0);
  });
});
