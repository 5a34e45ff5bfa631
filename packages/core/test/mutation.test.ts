/**
 * Transcripts are hostile input: random corruptions of every fixture file must never throw, and every line of
 * the corrupted file must still be accounted for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSession } from '../src/index.js';
import { accounted, memorySource } from './helpers.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

function transcripts(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) stack.push(path);
      else if (name.endsWith('.jsonl')) out.push(path);
    }
  }
  return out.sort();
}

/** A small deterministic PRNG (mulberry32), so failures can be replayed from the seed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MUTATIONS: ((lines: Buffer[], r: () => number) => void)[] = [
  // Truncate a line mid-way.
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    lines[i] = lines[i]!.subarray(0, Math.floor(r() * lines[i]!.length));
  },
  // Glue a line to the next one.
  (lines, r) => {
    const i = Math.floor(r() * (lines.length - 1));
    if (lines.length > 1) lines.splice(i, 2, Buffer.concat([lines[i]!, lines[i + 1]!]));
  },
  // Overwrite a byte with an invalid UTF-8 byte.
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    const copy = Buffer.from(lines[i]!);
    if (copy.length > 0) copy[Math.floor(r() * copy.length)] = 0xff;
    lines[i] = copy;
  },
  // Duplicate a line (a uuid written twice).
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    lines.splice(i, 0, lines[i]!);
  },
  // Swap two lines (children before parents).
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    const j = Math.floor(r() * lines.length);
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  },
  // Replace a field's value with another JSON type.
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    const values = ['null', '[]', '{}', '42', '"x"', 'true'];
    const text = lines[i]!.toString('utf8');
    const fields = [...text.matchAll(/"(\w+)":/g)];
    const field = fields[Math.floor(r() * fields.length)];
    if (!field) return;
    const value = values[Math.floor(r() * values.length)]!;
    lines[i] = Buffer.from(
      text.replace(new RegExp(`"${field[1]}":("[^"]*"|\\d+|null|true|false)`), `"${field[1]}":${value}`),
    );
  },
  // Insert a blank line, a non-object, or garbage.
  (lines, r) => {
    const junk = ['', '[1,2]', '"just a string"', '{"no":"type"}', '}{', '\u0000\u0001'];
    lines.splice(Math.floor(r() * lines.length), 0, Buffer.from(junk[Math.floor(r() * junk.length)]!));
  },
  // Make a line its own parent.
  (lines, r) => {
    const i = Math.floor(r() * lines.length);
    const text = lines[i]!.toString('utf8');
    const uuid = /"uuid":"([^"]+)"/.exec(text)?.[1];
    if (uuid) lines[i] = Buffer.from(text.replace(/"parentUuid":("[^"]*"|null)/, `"parentUuid":"${uuid}"`));
  },
];

function countLines(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return bytes[bytes.length - 1] === 0x0a ? n : n + 1;
}

describe('mutation', () => {
  const files = transcripts(fixtures);

  it('finds fixture transcripts to corrupt', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [f.slice(fixtures.length)]))(
    'never throws and accounts for every line of corrupted %s',
    async (name) => {
      const original = readFileSync(join(fixtures, name));
      let diagnosed = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const r = random(seed * 7919 + name.length);
        const lines = original
          .toString('latin1')
          .split('\n')
          .map((l) => Buffer.from(l, 'latin1'));
        if (lines.length > 1 && lines[lines.length - 1]!.length === 0) lines.pop();
        for (let k = 0; k < 1 + Math.floor(r() * 4); k++)
          MUTATIONS[Math.floor(r() * MUTATIONS.length)]!(lines, r);
        const bytes = Buffer.concat(
          lines.flatMap((l, i) => (i < lines.length - 1 || r() < 0.7 ? [l, Buffer.from('\n')] : [l])),
        );
        const session = await buildSession({
          id: 'm',
          main: memorySource(name, bytes, 1 + Math.floor(r() * 4096)),
          agents: [],
        });
        expect(session.accounting.lines, `seed ${seed}`).toBe(countLines(bytes));
        expect(accounted(session), `seed ${seed}`).toBe(true);
        expect(() => JSON.stringify(session)).not.toThrow();
        diagnosed += session.diagnostics.length;
      }
      // The corruptions did reach the parser.
      expect(diagnosed).toBeGreaterThan(0);
    },
  );
});
