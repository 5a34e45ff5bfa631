import { describe, expect, it } from 'vitest';
import { withTopLevelValue } from '../src/archive/top-level-value.js';

/** The text cut into pieces of `size` characters. */
async function* piecesOf(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

async function replaced(text: string, value: string, size: number): Promise<string> {
  let out = '';
  for await (const piece of withTopLevelValue(piecesOf(text, size), 'duplicateOf', value)) out += piece;
  return out;
}

describe('withTopLevelValue', () => {
  // Keys named like the top-level one, inside strings and nested objects, with escapes around them.
  const session = {
    id: 'a"b\\c',
    entries: [
      { duplicateOf: 'nested', text: '"duplicateOf":null,\\"duplicateOf\\":' },
      { message: { content: ['\\\\', '\\"', '{', '}', '[', ']', ','] } },
    ],
    'duplicateOf ': 'a key with a space',
    duplicateOf: null as string | null,
    diagnostics: [{ raw: '{"duplicateOf":null}' }],
    accounting: { lines: 3 },
  };

  it.each([1, 2, 3, 7, 64, 100_000])('replaces only the top-level value, in pieces of %i', async (size) => {
    const text = `${JSON.stringify(session)}\n`;
    for (const id of ['other-session', 'q"uote\\d', null]) {
      const expected = `${JSON.stringify({ ...session, duplicateOf: id })}\n`;
      expect(await replaced(text, JSON.stringify(id), size)).toBe(expected);
      const from = `${JSON.stringify({ ...session, duplicateOf: 'x\\"y' })}\n`;
      expect(await replaced(from, JSON.stringify(id), size)).toBe(expected);
    }
  });

  it('fails when the object has no such top-level key', async () => {
    await expect(replaced(JSON.stringify({ a: { duplicateOf: null } }), '"x"', 5)).rejects.toThrow(
      'no top-level duplicateOf',
    );
  });
});
