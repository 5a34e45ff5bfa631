import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type SessionItem, sessionItems, sessionJson } from '../src/archive/index.js';
import { buildSession } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const scenarios = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The bytes of `text` in chunks of `size` bytes (cut anywhere: inside strings, escapes, characters). */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function itemsOf(text: string, size: number, skipped?: Set<string>): Promise<SessionItem[]> {
  const out: SessionItem[] = [];
  const listed = new Set(['entries', 'responses', 'metadata']);
  for await (const item of sessionItems(chunked(text, size), { listed, ...(skipped ? { skipped } : {}) }))
    out.push(item);
  return out;
}

/** The session put back together from its items. */
function joined(items: readonly SessionItem[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { field, index, value } of items) {
    if (index < 0) out[field] = value;
    else {
      const list = (out[field] as unknown[] | undefined) ?? [];
      out[field] = list;
      expect(index).toBe(list.length);
      list.push(value);
    }
  }
  return out;
}

describe('sessionItems', () => {
  it.each(scenarios)(
    'reads %s item by item, in any chunks, as JSON.parse reads it whole',
    async (scenario) => {
      const dir = join(fixtures, scenario);
      const found = await discover([dir]);
      for (const project of found.projects)
        for (const s of project.sessions) {
          const session = await buildSession(await sessionSource(s, (p) => relative(dir, p)));
          let text = '';
          for await (const piece of sessionJson(session)) text += piece;
          const whole = JSON.parse(text) as Record<string, unknown>;
          for (const size of [1, 7, 4096]) {
            const items = await itemsOf(`${text}\n`, size);
            // Empty listed arrays yield no item: they are put back as such.
            const back = joined(items);
            for (const key of ['entries', 'responses', 'metadata']) back[key] ??= [];
            expect(back).toEqual(whole);
          }
        }
    },
  );

  it('keeps quotes, backslashes and characters of several bytes cut between chunks', async () => {
    const tricky = {
      id: 'a"b\\',
      entries: [{ t: 'é"\\"\\\\😀', n: [1, -2.5e3, true, null] }, 'x]}', 7],
      'k"\\': 3,
    };
    for (const size of [1, 2, 3, 5]) {
      const items = await itemsOf(JSON.stringify(tricky, null, 1), size);
      expect(joined(items)).toEqual(tricky);
      expect(items.filter((i) => i.field === 'entries').map((i) => i.index)).toEqual([0, 1, 2]);
    }
  });

  it('does not parse a skipped field, and still reads what follows it', async () => {
    const text = JSON.stringify({
      id: 's',
      responses: [{ a: '[' }, { b: '}' }],
      entries: [1, 2],
      cost: { x: 1 },
    });
    const items = await itemsOf(text, 3, new Set(['responses', 'cost']));
    expect(items.map((i) => [i.field, i.index, i.value])).toEqual([
      ['id', -1, 's'],
      ['responses', 0, undefined],
      ['responses', 1, undefined],
      ['entries', 0, 1],
      ['entries', 1, 2],
      ['cost', -1, undefined],
    ]);
  });

  it('refuses a text cut short or that is not an object', async () => {
    const text = JSON.stringify({ id: 's', entries: [{ a: 1 }, { b: 2 }] });
    await expect(itemsOf(text.slice(0, -3), 4)).rejects.toThrow(/ends before its closing brace/);
    await expect(itemsOf('[1,2]', 4)).rejects.toThrow(/does not start with/);
    await expect(itemsOf('{"id" 1}', 4)).rejects.toThrow(/colon/);
  });
});
