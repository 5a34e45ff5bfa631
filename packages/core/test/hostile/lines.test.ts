import { describe, expect, it } from 'vitest';
import { sessionJson } from '../../src/archive/index.js';
import { MAX_DEPTH, nestsDeeperThan } from '../../src/read/line-depth.js';
import { MAX_LINE_BYTES, readLineBatches } from '../../src/read/read-lines.js';
import { memorySource, prompt, sessionOf } from '../helpers.js';

const reply = (uuid: string, parentUuid: string, usage: object) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  sessionId: 'S',
  timestamp: '2026-01-01T10:00:00.000Z',
  message: {
    id: `msg-${uuid}`,
    role: 'assistant',
    model: 'm',
    content: [{ type: 'text', text: 'ok' }],
    usage,
  },
});

async function text(session: Awaited<ReturnType<typeof sessionOf>>): Promise<string> {
  let out = '';
  for await (const piece of sessionJson(session)) out += piece;
  return out;
}

describe('lines that could stop a run', () => {
  it('measures nesting outside strings only, escaped quotes included', () => {
    expect(nestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(50)}\\"${'{'.repeat(50)}"}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\"${'['.repeat(5)}`, 3)).toBe(true);
  });

  it('counts objects and arrays together, and is not misled by brackets in strings beside real nesting', () => {
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestsDeeperThan(`{"s":"${'{['.repeat(10)}","a":[[[]]]}`, 3)).toBe(true);
    expect(nestsDeeperThan(`{"s":"${'{['.repeat(10)}","a":[[]]}`, 3)).toBe(false);
  });

  it('keeps a line nested 50,000 deep as a too-deep diagnostic with its raw text, and serializes the session', async () => {
    const deep = `{"type":"user","uuid":"d","deep":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const session = await sessionOf([prompt('a', null), deep, prompt('b', 'a')]);
    const found = session.diagnostics.find((d) => d.code === 'too-deep');
    expect(found?.raw).toBe(deep);
    expect(session.entries.map((e) => e.uuid)).toEqual(['a', 'b']);
    expect(session.accounting.invalid).toBe(1);
    expect(JSON.parse(await text(session)).entries).toHaveLength(2);
  });

  it('finds a short line too deep when it does not parse, as before it was parsed', async () => {
    // Under 2 × MAX_DEPTH characters: a line this short that parses cannot be too deep, one that does not can.
    const open = `{"type":"user","uuid":"d","deep":${'['.repeat(MAX_DEPTH + 1)}`;
    const glued = `${JSON.stringify(prompt('e', null))}${'['.repeat(MAX_DEPTH + 1)}`;
    const session = await sessionOf([prompt('a', null), open, glued]);
    expect(session.diagnostics.map((d) => [d.code, d.line, d.raw])).toEqual([
      ['too-deep', 2, open],
      ['too-deep', 3, glued],
    ]);
    expect(session.accounting.invalid).toBe(2);
  });

  it('reads a record exactly MAX_DEPTH deep', async () => {
    const inner = `${'['.repeat(MAX_DEPTH - 1)}${']'.repeat(MAX_DEPTH - 1)}`;
    const session = await sessionOf([`{"type":"user","uuid":"d","deep":${inner}}`]);
    expect(session.diagnostics.map((d) => d.code)).not.toContain('too-deep');
    expect(session.entries).toHaveLength(1);
  });

  it('yields a line longer than maxLineBytes with its size and first bytes, without holding it', async () => {
    const long = `{"a":"${'x'.repeat(100_000)}"}`;
    const source = memorySource('f', `${long}\nshort\n${long}`, 1000);
    const lines = [];
    for await (const batch of readLineBatches(source.read(), { maxLineBytes: 50_000 })) lines.push(...batch);
    expect(lines.map((l) => [l.number, l.offset, l.length, l.oversize ?? false, l.terminated])).toEqual([
      [1, 0, long.length, true, true],
      [2, long.length + 1, 5, false, true],
      [3, long.length + 7, long.length, true, false],
    ]);
    expect(lines[0]!.text).toBe(long.slice(0, 4000));
    expect(lines[1]!.text).toBe('short');
  });

  it('makes a prompt over the documented limit (32 MiB) a line-too-long diagnostic, and reads the lines around it', async () => {
    const huge = JSON.stringify(prompt('b', 'a', 'word '.repeat(MAX_LINE_BYTES / 5 + 1)));
    const session = await sessionOf([prompt('a', null), huge, prompt('c', 'a')]);
    const long = session.diagnostics.filter((d) => d.code === 'line-too-long');
    expect(long.map((d) => d.line)).toEqual([2]);
    expect(long[0]!.raw).toBe(huge.slice(0, 4000));
    expect(long[0]!.message).toContain(`${huge.length} bytes`);
    expect(session.entries.map((e) => e.uuid)).toEqual(['a', 'c']);
  });

  it('reads a line just under the limit', async () => {
    const text = 'word '.repeat(MAX_LINE_BYTES / 5 - 100);
    const session = await sessionOf([prompt('a', null), prompt('b', 'a', text)]);
    expect(session.diagnostics.map((d) => d.code)).not.toContain('line-too-long');
    expect(session.entries).toHaveLength(2);
  });

  it('counts token values out of range as 0 with a diagnostic, so sums stay finite', async () => {
    const session = await sessionOf([
      prompt('a', null),
      reply('b', 'a', { input_tokens: 1e308, output_tokens: -3, cache_read_input_tokens: 1.5 }),
      reply('c', 'b', {
        input_tokens: 2 ** 60,
        output_tokens: '7',
        cache_creation: { ephemeral_1h_input_tokens: 1e308 },
      }),
      reply('d', 'c', { input_tokens: 10, output_tokens: 5 }),
      // Only a field of `cache_creation` out of range.
      reply('e', 'd', { cache_creation: { ephemeral_5m_input_tokens: -1, ephemeral_1h_input_tokens: 0 } }),
    ]);
    const out = session.diagnostics.filter((d) => d.code === 'number-out-of-range');
    expect(out.map((d) => d.uuid)).toEqual(['b', 'c', 'e']);
    expect(out[0]!.message).toContain('usage.input_tokens=1e+308');
    expect(out[2]!.message).toBe(
      'Token counts out of range were counted as 0: usage.cache_creation.ephemeral_5m_input_tokens=-1.',
    );
    expect(session.usage.total.inputTokens).toBe(10);
    expect(session.usage.total.outputTokens).toBe(5);
    expect(session.usage.total.cacheCreation1hTokens).toBe(0);
    expect(await text(session)).not.toContain('null,"outputTokens"');
  });

  it('turns a timestamp that names no instant into a diagnostic and no time', async () => {
    const session = await sessionOf([
      prompt('a', null, 'x', { timestamp: 'not-a-date' }),
      prompt('b', 'a', 'y', { timestamp: '2026-13-45T99:00:00Z' }),
      prompt('c', 'b', 'z', { timestamp: 12 }),
    ]);
    expect(session.entries.map((e) => e.timestamp)).toEqual([null, null, null]);
    expect(session.diagnostics.filter((d) => d.code === 'invalid-timestamp')).toHaveLength(3);
  });

  it('ignores a spawnDepth that is not a positive integer, with a diagnostic', async () => {
    for (const spawnDepth of [-1, 0.5, 1e308, 'deep']) {
      const session = await sessionOf(
        [prompt('a', null)],
        { 'agent-x': [prompt('x', null)] },
        { 'agent-x': { spawnDepth } },
      );
      expect(session.diagnostics.map((d) => d.code)).toContain('invalid-agent-depth');
    }
  });
});
