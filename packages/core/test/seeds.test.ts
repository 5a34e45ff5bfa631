import { describe, expect, it } from 'vitest';
import { byUuid, sessionOf } from './helpers.js';

describe("the seeds' record shapes", () => {
  it('passes the compact-handling example of "Claude Code Compact Operations"', async () => {
    // The test_messages of seeds/004, verbatim.
    const s = await sessionOf([
      { uuid: 'msg-1', type: 'user', parentUuid: null },
      { uuid: 'msg-2', type: 'assistant', parentUuid: 'msg-1' },
      { type: 'compact_system', message: 'conversation_compacting' },
      {
        type: 'compact_system',
        message: 'conversation_compacted',
        metadata: { preservedMessages: 0, totalMessages: 2 },
      },
      { uuid: 'msg-3', type: 'user', parentUuid: 'msg-2', logicalParentUuid: 'msg-2' },
    ]);
    expect(s.compactions.filter((c) => c.kind === 'full')).toHaveLength(1);
    expect(s.orphans).toEqual(['msg-3']);
    expect(byUuid(s, 'msg-3').parent).toBeNull();
    expect(byUuid(s, 'msg-3').logicalParentUuid).toBe('msg-2');
    expect(s.compactions[0]!.logicalParent).toBe('msg-2');
    expect(byUuid(s, 'msg-3').epoch).toBe(1);
    expect(s.accounting).toMatchObject({ entries: 3, metadata: 2 });
  });

  it('reads human, tool_use, tool_result and thinking records, and the flat tool form', async () => {
    const s = await sessionOf([
      { type: 'human', uuid: 'h', parentUuid: null, message: 'Review my code' },
      { type: 'thinking', uuid: 'th', parentUuid: 'h', thinking: 'hmm' },
      {
        type: 'assistant',
        subtype: 'tool_use',
        toolName: 'Task',
        toolArguments: { subagent_type: 'bug-hunter', prompt: 'Find bugs' },
        uuid: 'task-1',
        parentUuid: 'th',
      },
      {
        type: 'user',
        uuid: 'sc1',
        parentUuid: 'task-1',
        isSidechain: true,
        userType: 'external',
        message: 'Find bugs',
      },
      { type: 'assistant', uuid: 'sc2', parentUuid: 'sc1', isSidechain: true, message: 'Found two' },
      {
        type: 'tool_use',
        uuid: 'tu',
        parentUuid: 'sc2',
        message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] },
      },
      {
        type: 'tool_result',
        uuid: 'tr',
        parentUuid: 'tu',
        message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] },
      },
    ]);
    expect(byUuid(s, 'h')).toMatchObject({ kind: 'prompt', actor: 'human' });
    expect(byUuid(s, 'th').content).toEqual([{ type: 'thinking', thinking: 'hmm', signature: null }]);
    expect(s.sidechains).toMatchObject([
      { agentType: 'bug-hunter', link: 'parent-uuid', rootUuid: 'sc1', spawn: { entryUuid: 'task-1' } },
    ]);
    expect(byUuid(s, 'sc1').actor).toBe('claude-as-user');
    expect(s.tools.find((t) => t.id === 'toolu_1')).toMatchObject({ status: 'ok', resultUuid: 'tr' });
  });

  it('takes nestingLevel as sidechain depth', async () => {
    const s = await sessionOf([
      { type: 'assistant', uuid: 'main-1', parentUuid: null, message: 'delegating' },
      { type: 'user', uuid: 'sc1-1', parentUuid: 'main-1', isSidechain: true, message: 'architect this' },
      { type: 'assistant', uuid: 'sc1-2', parentUuid: 'sc1-1', isSidechain: true, message: 'ok' },
      {
        type: 'user',
        uuid: 'sc2-1',
        parentUuid: 'sc1-2',
        isSidechain: true,
        nestingLevel: 2,
        message: 'build it',
      },
      {
        type: 'assistant',
        uuid: 'sc2-2',
        parentUuid: 'sc2-1',
        isSidechain: true,
        nestingLevel: 2,
        message: 'built',
      },
    ]);
    expect(s.sidechains.map((x) => [x.rootUuid, x.depth, x.entries])).toEqual([
      ['sc1-1', 1, 2],
      ['sc2-1', 2, 2],
    ]);
  });
});
