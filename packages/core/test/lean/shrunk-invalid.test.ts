/**
 * A line that is not valid JSON only in the bytes a structure-only read takes away before parsing (a long tool
 * output emptied, a long text cut) is as invalid for that read as for a full one: the same diagnostics, the same
 * accounting, no entry made of it.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildSession, type Session, type SessionSource } from '../../src/index.js';
import { shrinkLine } from '../../src/lean/shrink-line.js';
import { scanStrings, stringSpans } from '../../src/lean/string-spans.js';
import { LEAN_TEXT, LEAN_UNREAD } from '../../src/lean/structure-only.js';
import { answer, jsonl, memorySource, prompt, toolResult, toolUse } from '../helpers.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** A string's JSON text (quoted) with `raw` spliced in after `before` characters, as written, unescaped. */
function withRaw(value: string, before: number, raw: string): string {
  const text = JSON.stringify(value);
  return `${text.slice(0, before + 1)}${raw}${text.slice(before + 1)}`;
}

/**
 * Lines of one session: a prompt, a tool call, then either its long result (`output`: its JSON text) or a long
 * prompt (`text`: its JSON text), and an answer.
 */
function lines(third: { output: string } | { text: string }): string[] {
  const call = answer('b', 'a', toolUse('t1', 'Bash', { command: 'ls' }));
  const line =
    'output' in third
      ? JSON.stringify(toolResult('c', 'b', 't1')).replace('"content":"ok"', `"content":${third.output}`)
      : JSON.stringify(prompt('c', 'b', 'TEXT')).replace('"TEXT"', third.text);
  return [
    JSON.stringify(prompt('a', null)),
    JSON.stringify(call),
    line,
    JSON.stringify(answer('d', 'c', 'done')),
  ];
}

function source(text: string): SessionSource {
  return { id: 'S', main: memorySource('s.jsonl', text), agents: [] };
}

/** What a read makes of the lines: entries, accounting and diagnostics. */
function outcome(session: Session) {
  return {
    entries: session.entries.map((e) => e.uuid),
    accounting: session.accounting,
    diagnostics: session.diagnostics.map((d) => `${d.line}:${d.code}`),
  };
}

describe('lines invalid only where a structure-only read shrinks them', () => {
  const output = 'line of output\n'.repeat(1000); // ≈ 16 KB: the line is shrunk, the output emptied
  const cases: [string, { output: string } | { text: string }][] = [
    ['an invalid escape in an emptied tool output', { output: withRaw(output, 9000, '\\q') }],
    ['a control character in an emptied tool output', { output: withRaw(output, 9000, '\u0001') }],
    [
      'a \\u escape without four digits in an emptied tool output',
      { output: withRaw(output, 9000, '\\u12G4') },
    ],
    [
      'an invalid escape past the kept part of a long prompt',
      { text: withRaw('word '.repeat(3000), 9000, '\\x') },
    ],
  ];
  for (const [what, result] of cases) {
    it(`diagnoses ${what} as a full read does`, async () => {
      const text = jsonl(lines(result));
      const full = await buildSession(source(text));
      const lean = await buildSession(source(text), { content: false, statsOnly: true });
      expect(outcome(full).diagnostics).toContain('3:invalid-json');
      expect(outcome(lean)).toEqual(outcome(full));
    });
  }

  it('still shrinks a long line whose strings are all valid', () => {
    const line = lines({ output: JSON.stringify(output) })[2]!;
    const shrunk = shrinkLine(enc(line), LEAN_TEXT, LEAN_UNREAD);
    expect(shrunk).not.toBeNull();
    expect(JSON.parse(new TextDecoder().decode(shrunk!)).message.content[0].content).toBe('');
  });

  it('gives up shrinking a line with an invalid string, wherever it is', () => {
    for (const [, result] of cases) expect(shrinkLine(enc(lines(result)[2]!), 100, LEAN_UNREAD)).toBeNull();
  });
});

describe('string spans', () => {
  /** The spans of a line through the cursor (WebAssembly where it runs), or null when a string is not valid. */
  function spans(line: Uint8Array): number[] | null {
    const cursor = stringSpans(line);
    const out: number[] = [];
    while (cursor.next()) out.push(cursor.open, cursor.close);
    return cursor.valid ? out : null;
  }

  it('agrees with JSON.parse on every string of random lines, sixteen bytes at a time or not', () => {
    const pieces = [
      'a',
      '\\',
      'n',
      'u',
      '0',
      'F',
      '"',
      '\u001f',
      '\u0000',
      ' ',
      'é',
      '/',
      '\\\\',
      '\\n',
      '\\u00e9',
      '\u007f',
      ':',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 10_000; k++) {
      let body = '';
      const length = random(k % 10 === 0 ? 300 : 40);
      for (let i = 0; i < length; i++) body += pieces[random(pieces.length)];
      const line = enc(`{"k":"${body}"}`);
      const found = spans(line);
      let valid = true;
      try {
        JSON.parse(`{"k":"${body}"}`);
      } catch {
        valid = false;
      }
      // A valid line's strings are all found; an invalid one is valid JSON nowhere the cursor says so.
      if (valid) expect(found, body).not.toBeNull();
      if (found !== null && found.length === 4) {
        const close = found[3]!;
        expect(() => JSON.parse(new TextDecoder().decode(line.subarray(5, close + 1))), body).not.toThrow();
      }
      const reference = new Int32Array(4096);
      const count = scanStrings(line, 0, reference);
      expect(found, body).toEqual(count < 0 ? null : [...reference.subarray(0, 2 * count)]);
    }
  });

  it('finds the same strings without WebAssembly', async () => {
    const lines = [
      enc(JSON.stringify(Array.from({ length: 3000 }, (_, i) => `s${i}\n"\\`))),
      enc('{"a":"ok\\q"}'),
      enc(`{"k":"${'x'.repeat(100)}\u00e9","v":[1,"\\"]}`),
    ];
    const expected = lines.map(spans);
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const fallback = await import('../../src/lean/string-spans.js');
      for (const [i, line] of lines.entries()) {
        const cursor = fallback.stringSpans(line);
        const out: number[] = [];
        while (cursor.next()) out.push(cursor.open, cursor.close);
        expect(cursor.valid ? out : null).toEqual(expected[i]);
      }
    } finally {
      vi.unstubAllGlobals();
    }
    expect(expected[1]).toBeNull();
  });

  it('finds the strings of a line with more strings than one call of the scan returns', () => {
    const line = enc(JSON.stringify(Array.from({ length: 5000 }, (_, i) => `s${i}\n`)));
    const found = spans(line)!;
    expect(found).toHaveLength(10_000);
    expect(new TextDecoder().decode(line.subarray(found[9998]! + 1, found[9999]!))).toBe('s4999\\n');
  });
});
