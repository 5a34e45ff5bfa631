import { describe, expect, it } from 'vitest';
import { answer, byUuid, progress, prompt, sessionOf, toolResult, toolUse } from './helpers.js';

describe('branches', () => {
  it('treats two prompts under one parent as a rewind: the later is active, the earlier abandoned whole', async () => {
    //        ┌ p1 ─ a1 ─ p1b        (abandoned)
    // r ─ a0 ┤
    //        └ p2 ─ a2              (active)
    const s = await sessionOf([
      prompt('r', null),
      answer('a0', 'r', 'hello'),
      prompt('p1', 'a0'),
      answer('a1', 'p1', 'one'),
      prompt('p1b', 'a1'),
      prompt('p2', 'a0'),
      answer('a2', 'p2', 'two'),
    ]);
    expect(s.branchPoints).toEqual([
      { uuid: 'a0', kind: 'rewind', children: ['p1', 'p2'], activeChild: 'p2' },
    ]);
    expect(s.branches).toMatchObject([{ branchPoint: 'a0', head: 'p1', leaf: 'p1b', entries: 3 }]);
    expect(['p1', 'a1', 'p1b'].map((u) => byUuid(s, u).active)).toEqual([false, false, false]);
    expect(byUuid(s, 'a1').branchPoint).toBe('a0');
    expect(byUuid(s, 'a2').active).toBe(true);
    expect(s.leaf).toBe('a2');
  });

  it('treats two different responses to one prompt as a retry fork', async () => {
    const s = await sessionOf([
      prompt('q', null),
      answer('x1', 'q', 'first', 'm1'),
      answer('x2', 'q', 'second', 'm2'),
    ]);
    expect(s.branchPoints[0]).toMatchObject({ kind: 'retry', activeChild: 'x2' });
    expect(byUuid(s, 'x1').active).toBe(false);
  });

  it('does not take a tool call followed by progress and its result for a fork', async () => {
    // p ─ t ┬ pr (progress)
    //       └ res ─ a
    const s = await sessionOf([
      prompt('p', null),
      answer('t', 'p', toolUse('T1')),
      progress('pr', 't'),
      toolResult('res', 't', 'T1'),
      answer('a', 'res', 'done'),
    ]);
    expect(s.branchPoints).toEqual([
      { uuid: 't', kind: 'tool-progress', children: ['pr', 'res'], activeChild: null },
    ]);
    expect(s.entries.every((e) => e.active)).toBe(true);
    expect(s.branches).toEqual([]);
  });

  it('does not take parallel tool calls of one response for a fork', async () => {
    // p ─ A ┬ B (same message) ─ rB ─ end
    //       └ rA
    const s = await sessionOf([
      prompt('p', null),
      answer('A', 'p', toolUse('TA'), 'm'),
      answer('B', 'A', toolUse('TB'), 'm'),
      toolResult('rA', 'A', 'TA'),
      toolResult('rB', 'B', 'TB'),
      answer('end', 'rB', 'both done', 'm2'),
    ]);
    expect(s.branchPoints.map((b) => b.kind)).toEqual(['parallel-tools']);
    expect(byUuid(s, 'rA').active).toBe(true);
    expect(s.leaf).toBe('end');
  });

  it('does not take hook siblings for a fork', async () => {
    const hook = {
      type: 'system',
      subtype: 'stop_hook_summary',
      uuid: 'h',
      parentUuid: 'a',
      timestamp: '2026-01-01T11:00:00Z',
    };
    const s = await sessionOf([prompt('p', null), answer('a', 'p', 'hi'), hook, prompt('n', 'a')]);
    expect(s.branchPoints.map((b) => b.kind)).toEqual(['hook']);
    expect(s.entries.every((e) => e.active)).toBe(true);
  });

  it('follows is_active where present, and says when it disagrees with the latest entry', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('x1', 'p', 'kept', 'm1', { is_active: true }),
      answer('x2', 'p', 'newer', 'm2'),
    ]);
    expect(s.branchPoints[0]!.activeChild).toBe('x1');
    expect(byUuid(s, 'x2').active).toBe(false);
    expect(s.leaf).toBe('x1');
    expect(s.diagnostics.map((d) => d.code)).toContain('active-branch-disagreement');
  });

  it('treats slash commands typed under one parent as side commands, not a fork', async () => {
    const cmd = (uuid: string, name: string) =>
      prompt(uuid, 'm', `<command-name>${name}</command-name>\n<command-args></command-args>`);
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      prompt('m', 'a', '<local-command-caveat>c</local-command-caveat>', { isMeta: true }),
      cmd('c1', '/doctor'),
      cmd('c2', '/mcp'),
    ]);
    expect(s.branchPoints[0]).toMatchObject({ uuid: 'm', kind: 'side-command', activeChild: null });
    expect(s.branches).toEqual([]);
    expect(s.entries.every((e) => e.active)).toBe(true);
  });

  it('keeps a side command beside a rewind active, and abandons only the other prompt', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      prompt('c1', 'a', '<command-name>/status</command-name>\n<command-args></command-args>'),
      prompt('p1', 'a', 'first try'),
      answer('a1', 'p1', 'one', 'm1'),
      prompt('p2', 'a', 'second try'),
      answer('a2', 'p2', 'two', 'm2'),
    ]);
    expect(s.branchPoints[0]).toMatchObject({ uuid: 'a', kind: 'rewind', activeChild: 'p2' });
    expect(s.branches).toMatchObject([{ head: 'p1', entries: 2 }]);
    expect(byUuid(s, 'c1').active).toBe(true);
  });

  it('counts a command the conversation continued from as a re-prompt', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      prompt('c1', 'a', '<command-name>/review</command-name>\n<command-args></command-args>'),
      answer('r1', 'c1', 'reviewing', 'm1'),
      prompt('p2', 'a', 'never mind'),
      answer('a2', 'p2', 'ok', 'm2'),
    ]);
    expect(s.branchPoints[0]).toMatchObject({ uuid: 'a', kind: 'rewind', activeChild: 'p2' });
    expect(byUuid(s, 'r1').active).toBe(false);
  });
});
