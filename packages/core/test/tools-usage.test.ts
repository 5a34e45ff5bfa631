import { describe, expect, it } from 'vitest';
import { responseUsages, totalUsage, usageAcross } from '../src/archive/duplicates.js';
import { findDuplicates, sessionDuplicates } from '../src/archive/index.js';
import { buildSession } from '../src/index.js';
import {
  answer,
  jsonl,
  memorySource,
  progress,
  prompt,
  sessionOf,
  tick,
  toolResult,
  toolUse,
} from './helpers.js';

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
    expect(sessionDuplicates(sessions)).toEqual(['full', null]);
    expect(usageAcross(sessions).responses).toBe(2);
    expect(full.usage.total.responses + copy.usage.total.responses).toBe(3);
  });
});

describe('content: false', () => {
  it('keeps the structure, and withContent restores each entry from its line', async () => {
    const { withContent, recordAt } = await import('../src/archive/restore.js');
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

describe('content: false on long lines', () => {
  it('agrees with a full build on structure, statistics and sub-agents, whatever the values it does not read', async () => {
    const { sessionStats, statsDigest } = await import('../src/archive/index.js');
    const { withContent } = await import('../src/archive/restore.js');
    // Long enough that every line is shrunk; escapes, quotes and brackets inside, as tool outputs have.
    const big = (tag: string) => `${tag} {"k": [1, "\\"]}\n`.repeat(800);
    const task = toolUse('T1', 'Task', {
      prompt: 'find the bug',
      subagent_type: 'explorer',
      description: 'look',
      notes: big('n'),
    });
    // A second agent runs inline, in the main file, and is matched to its call by its prompt.
    const ask = `check every file for the bug, then report where it is: ${'and why '.repeat(30)}`;
    const main = [
      prompt('p', null, 'find the bug please'),
      answer('th', 'p', { type: 'thinking', thinking: big('t'), signature: big('s') }, 'm1'),
      answer('a', 'th', task, 'm1'),
      {
        type: 'attachment',
        uuid: 'at',
        parentUuid: 'a',
        timestamp: tick(),
        sessionId: 'S',
        attachment: { type: 'file', content: big('f') },
      },
      progress(
        'pg',
        'at',
        { type: 'agent_progress', agentId: 'A1', message: { content: big('m') } },
        { parentToolUseID: 'T1' },
      ),
      {
        ...toolResult('r', 'pg', 'T1', {
          toolUseResult: { agentId: 'A1', agentType: 'explorer', status: 'completed', content: big('u') },
        }),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'T1', content: [{ type: 'text', text: big('r') }] }],
        },
      },
      {
        type: 'thinking',
        uuid: 'st',
        parentUuid: 'r',
        timestamp: tick(),
        sessionId: 'S',
        thinking: big('x'),
      },
      { type: 'file-history-snapshot', messageId: 'm1', snapshot: { files: big('h') } },
      answer(
        'a2',
        'st',
        toolUse('T2', 'Task', { prompt: ask, subagent_type: 'checker', notes: big('q') }),
        'm2',
      ),
      prompt('bp', null, ask, { isSidechain: true }),
      answer('bw', 'bp', `found it ${big('b')}`, 'bm1', { isSidechain: true }),
      toolResult('r2', 'a2', 'T2'),
      answer('end', 'r2', `done ${big('d')}`, 'm3'),
    ];
    const agent = [
      prompt('ap', null, 'find the bug', { isSidechain: true, agentId: 'A1' }),
      answer('aw', 'ap', toolUse('W1', 'Write', { file_path: '/f', content: big('w') }), 'am1', {
        isSidechain: true,
        agentId: 'A1',
      }),
      toolResult('ar', 'aw', 'W1', { isSidechain: true, agentId: 'A1', toolUseResult: big('o') }),
    ];
    const texts = { main: jsonl(main), agent: jsonl(agent) };
    const source = () => ({
      id: 'S',
      main: memorySource('S.jsonl', texts.main),
      agents: [memorySource('S/subagents/agent-A1.jsonl', texts.agent)],
    });
    const full = await buildSession(source());
    const lean = await buildSession(source(), { content: false });
    expect(texts.main.split('\n').filter((line) => line.length > 8192)).toHaveLength(10);

    expect(full.sidechains.map((c) => [c.agentId, c.agentType, c.link])).toEqual([
      ['A1', 'explorer', 'agent-id'],
      [null, 'checker', 'prompt'],
    ]);
    expect(lean.sidechains).toEqual(full.sidechains);
    expect(sessionStats(lean)).toEqual(sessionStats(full));
    expect(statsDigest(lean)).toEqual(statsDigest(full));
    expect(lean.diagnostics).toEqual(full.diagnostics);
    const lines = new Map([
      ['S.jsonl', texts.main.split('\n')],
      ['S/subagents/agent-A1.jsonl', texts.agent.split('\n')],
    ]);
    for (const [i, entry] of lean.entries.entries()) {
      const line = lines.get(entry.source.file)![entry.source.line - 1]!;
      expect(withContent(entry, line)).toEqual(full.entries[i]);
    }
    expect(JSON.stringify(lean).length).toBeLessThan(JSON.stringify(full).length / 10);
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
