import { buildSession, type SessionSource } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/privacy/redact.js';

// A password that the title's cut (120 characters) and the first prompt's (2,000) would split, leaving too little
// of it for a rule to know it as one. Written in parts.
const password = ['Qz8p', 'LmN4vX2kR7tY'].join('');
const start = password.slice(0, 4);

function source(prompt: string): SessionSource {
  const record = {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2026-02-10T09:14:01.000Z',
    message: { role: 'user', content: prompt },
  };
  const bytes = new TextEncoder().encode(`${JSON.stringify(record)}\n`);
  return {
    id: 's1',
    main: {
      path: 's1.jsonl',
      async *read() {
        yield bytes;
      },
    },
    agents: [],
  };
}

const redact = (text: string) => redactText(text).text;

describe('titles and first prompts are redacted before they are cut', () => {
  it.each([
    ['the title (120 characters)', `${'t'.repeat(100)} DB_PASSWORD=${password} and more`],
    ['the first prompt (2,000 characters)', `${'f'.repeat(1982)} DB_PASSWORD=${password} and more`],
  ])('%s', async (_name, prompt) => {
    // Cut, then redacted: the password's first characters are published.
    const cutFirst = await buildSession(source(prompt));
    expect(redact(`${cutFirst.title}\n${cutFirst.firstPrompt}`)).toContain(`DB_PASSWORD=${start}`);
    const redactedFirst = await buildSession(source(prompt), { beforeCut: redact });
    expect(`${redactedFirst.title}\n${redactedFirst.firstPrompt}`).not.toContain(start);
  });
});
