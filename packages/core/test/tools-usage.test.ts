import { describe, expect, it } from 'vitest';
import {
  buildSession,
  findDuplicates,
  markDuplicates,
  responseUsages,
  totalUsage,
  usageAcross,
} from '../src/index.js';
import { answer, jsonl, memorySource, prompt, sessionOf, toolResult, toolUse } from './helpers.js';

describe('tool pairing', () => {
  it('pairs calls and results across the session, with status and duration', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', toolUse('T1'), 'm1'),
      answer('b', 'a', toolUse('T2'), 'm1'),
      toolResult('rb', 'b', 'T2', {}, true),
      toolResult('ra', 'rb', 'T1'),
      toolResult('rx', 'ra', 'T404'),
      answer('c', 'rx', toolUse('T3'), 'm2'),
    ]);
    const by = Object.fromEntries(s.tools.map((t) => [t.id, t]));
    expect(by.T1).toMatchObject({ status: 'ok', resultUuid: 'ra', batch: 'm1' });
    expect(by.T1!.durationMs).toBeGreaterThan(0);
    expect(by.T2!.status).toBe('error');
    expect(by.T3!.status).toBe('missing-result');
    expect(by.T404).toMatchObject({ status: 'result-without-call', callUuid: null });
  });
});

describe('usage', () => {
  it('counts one API response once, taking the largest value of each field over its lines', async () => {
    const line = (uuid: string, parent: string, out: number) => {
      const a = answer(uuid, parent, 'x', 'msg_same');
      a.message.usage = {
        input_tokens: 3,
        output_tokens: out,
        cache_read_input_tokens: 100,
        cache_creation: { ephemeral_5m_input_tokens: 7, ephemeral_1h_input_tokens: 2 },
      } as never;
      return a;
    };
    const s = await sessionOf([prompt('p', null), line('a', 'p', 1), line('b', 'a', 40), line('c', 'b', 12)]);
    expect(s.usage.total).toEqual({
      inputTokens: 3,
      outputTokens: 40,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 100,
      cacheCreation5mTokens: 7,
      cacheCreation1hTokens: 2,
      responses: 1,
    });
    expect(s.usage.byModel['claude-test']!.responses).toBe(1);
    expect(s.responses).toMatchObject([
      { id: 'msg_same', entries: ['a', 'b', 'c'], usage: { outputTokens: 40 } },
    ]);
  });

  it('marks a session contained in another as its duplicate and counts shared responses once', async () => {
    const records = [
      prompt('p', null),
      answer('a', 'p', 'x', 'm1'),
      prompt('q', 'a'),
      answer('b', 'q', 'y', 'm2'),
    ];
    const full = await buildSession({
      id: 'full',
      main: memorySource('full.jsonl', jsonl(records)),
      agents: [],
    });
    const copy = await buildSession({
      id: 'copy',
      main: memorySource('copy.jsonl', jsonl(records.slice(0, 2))),
      agents: [],
    });
    const sessions = [copy, full];
    markDuplicates(sessions);
    expect(copy.duplicateOf).toBe('full');
    expect(full.duplicateOf).toBeNull();
    expect(usageAcross(sessions).responses).toBe(2);
    expect(full.usage.total.responses + copy.usage.total.responses).toBe(3);
  });
});

describe('content: false', () => {
  it('keeps the structure, and withContent restores each entry from its line', async () => {
    const { withContent, recordAt } = await import('../src/index.js');
    const big = 'x'.repeat(50_000);
    const lines = [
      prompt('p', null, `hello ${'\u00e9\n'.repeat(40_000)}`),
      answer('a', 'p', toolUse('T1', 'Read', { file_path: '/f', extra: big }), 'm1'),
      `${JSON.stringify(toolResult('r', 'a', 'T1', { toolUseResult: { stdout: big } }))}{"type":"summary","summary":"s","leafUuid":"r"}`,
    ];
    const text = jsonl(lines);
    const full = await buildSession({ id: 'f', main: memorySource('f.jsonl', text), agents: [] });
    const lean = await buildSession(
      { id: 'f', main: memorySource('f.jsonl', text), agents: [] },
      { content: false },
    );
    expect(JSON.stringify(lean).length).toBeLessThan(JSON.stringify(full).length / 10);
    expect(lean.tools).toEqual(full.tools);
    expect(lean.leaf).toBe(full.leaf);
    expect(lean.firstPrompt).toBe(full.firstPrompt);
    expect(full.firstPrompt).toHaveLength(2000);
    const textLines = text.split('\n');
    for (const [i, entry] of lean.entries.entries()) {
      expect(withContent(entry, textLines[entry.source.line - 1]!)).toEqual(full.entries[i]);
    }
    const meta = lean.metadata[0]!;
    expect(recordAt(textLines[meta.source.line - 1]!, meta.source.part ?? 0)).toEqual(
      full.metadata[0]!.record,
    );
  });
});

describe('findDuplicates', () => {
  const set = (id: string, ...uuids: string[]) => ({ id, uuids });

  it('finds the session holding all of another one, the larger and then the first by id', () => {
    expect(
      findDuplicates([
        set('a', 'u1', 'u2'),
        set('b', 'u1', 'u2', 'u3'),
        set('c', 'u2', 'u3'),
        set('d', 'x'),
        set('e'),
      ]),
    ).toEqual(['b', null, 'b', null, null]);
  });

  it('keeps exactly one of equal copies, and never pairs two sessions with each other', () => {
    const found = findDuplicates([set('z', 'u1', 'u2'), set('y', 'u2', 'u1'), set('x', 'u1', 'u2')]);
    expect(found[2]).toBeNull(); // x sorts first: it is kept
    expect(found[0]).not.toBeNull();
    expect(found[1]).toBe('x');
    expect(found[found.indexOf('z')]).not.toBe('z');
  });

  it('does not take a session that only starts the same way', () => {
    expect(findDuplicates([set('a', 'u1', 'u9'), set('b', 'u1', 'u2', 'u3')])).toEqual([null, null]);
  });
});

describe('responseUsages and totalUsage', () => {
  it('count a response held by two sessions once, with its largest usage', async () => {
    const lines = [prompt('p', null), answer('a', 'p', toolUse('T1'), 'm1')];
    const one = await sessionOf(lines);
    const two = await sessionOf([
      ...lines,
      toolResult('r', 'a', 'T1'),
      answer('b', 'r', toolUse('T2'), 'm2'),
    ]);
    const total = totalUsage([responseUsages(one), responseUsages(two)]);
    expect(total.responses).toBe(2);
    expect(total).toEqual(usageAcross([one, two]));
  });
});
