import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sessionJson } from '../src/archive/index.js';
import { buildSession } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';
import { answer, jsonl, memorySource, prompt } from './helpers.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const scenarios = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

async function text(pieces: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const piece of pieces) out += piece;
  return out;
}

describe('sessionJson', () => {
  it.each(scenarios)(
    'streams %s byte-identical to JSON.stringify, also from a structure-only build',
    async (scenario) => {
      const dir = join(fixtures, scenario);
      const found = await discover([dir]);
      for (const project of found.projects) {
        for (const s of project.sessions) {
          const source = await sessionSource(s, (p) => relative(dir, p));
          const full = await buildSession(source);
          const lean = await buildSession(source, { content: false });
          const expected = JSON.stringify(full);
          expect(await text(sessionJson(full))).toBe(expected);
          expect(await text(sessionJson(lean, source))).toBe(expected);
          // A transform sees every piece: here it upper-cases every string, as a redactor would rewrite them.
          const upper = <T>(value: T): T =>
            JSON.parse(JSON.stringify(value), (_k, v) => (typeof v === 'string' ? v.toUpperCase() : v));
          expect(await text(sessionJson(lean, source, { transform: upper }))).toBe(
            JSON.stringify(upper(full)),
          );
        }
      }
    },
  );

  // #31: a session of a million lines has half a million responses; their array was one string of 170 MB, then
  // as many bytes again when written. Now no piece holds more than about 64 K characters and one item.
  it('writes long top-level arrays and the entries in pieces, the same text as JSON.stringify', async () => {
    const records: object[] = [prompt('u0', null)];
    for (let i = 1; i < 4000; i++) records.push(answer(`a${i}`, i === 1 ? 'u0' : `a${i - 1}`, `r${i}`));
    const source = { id: 's', main: memorySource('s.jsonl', jsonl(records)), agents: [] };
    const session = await buildSession(source);
    expect(session.responses.length).toBe(3999);
    const pieces: string[] = [];
    for await (const piece of sessionJson(session)) pieces.push(piece);
    expect(pieces.join('')).toBe(JSON.stringify(session));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(70_000);
    expect(JSON.stringify(session.responses).length).toBeGreaterThan(500_000);
    // Entries too: joined into pieces, not one piece (one turn of the async iteration) each.
    expect(pieces.length).toBeLessThan(session.entries.length / 10);
  });
});
