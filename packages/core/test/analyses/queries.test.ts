import { describe, expect, it } from 'vitest';
import { activePath, ancestors, subtree } from '../../src/analyses/queries.js';
import { activeEntries, branchEntries, childrenOf, sidechainEntries, toolCallsIn } from '../../src/index.js';
import { answer, prompt, sessionOf, toolResult, toolUse } from '../helpers.js';

const uuids = (entries: readonly { uuid: string }[]) => entries.map((e) => e.uuid);

/**
 * p ─ a ─ q1 ─ b1          (abandoned: q2 is the later prompt)
 *         └ q2 ─ b2(Task) ─ r
 *                  └┄ sidechain: s1 ─ s2
 */
const lines = [
  prompt('p', null),
  answer('a', 'p', 'hello'),
  prompt('q1', 'a', 'first try'),
  answer('b1', 'q1', 'one'),
  prompt('q2', 'a', 'second try'),
  answer('b2', 'q2', toolUse('T1', 'Task', { subagent_type: 'explorer', prompt: 'look' }), 'm2'),
  toolResult('r', 'b2', 'T1', { toolUseResult: { agentId: 'A1', status: 'completed' } }),
];
const agent = [
  prompt('s1', null, 'look', { isSidechain: true, agentId: 'A1' }),
  answer('s2', 's1', toolUse('T9', 'Read', { file_path: '/f' }), 'm9', { isSidechain: true, agentId: 'A1' }),
];

describe('session queries', () => {
  it('walk the built DAG: children, subtrees, ancestors and the active path', async () => {
    const s = await sessionOf(lines, { 'agent-A1': agent });
    const children = childrenOf(s.entries);
    expect(children.get('a')).toEqual(['q1', 'q2']);
    expect(children.get('b2')).toEqual(['r', 's1']);
    expect(uuids(subtree(s, 'q2', children))).toEqual(['q2', 'b2', 'r', 's1', 's2']);
    expect(ancestors(s, 's2')).toEqual(['p', 'a', 'q2', 'b2', 's1', 's2']);
    expect(ancestors(s, 'nowhere')).toEqual([]);
    expect(activePath(s)).toEqual(['p', 'a', 'q2', 'b2', 'r']);
  });

  it('list the members of the main conversation, a sidechain and a branch', async () => {
    const s = await sessionOf(lines, { 'agent-A1': agent });
    expect(uuids(activeEntries(s))).toEqual(['p', 'a', 'q2', 'b2', 'r']);
    const [sidechain] = s.sidechains;
    expect(uuids(sidechainEntries(s, sidechain!.id))).toEqual(['s1', 's2']);
    const [branch] = s.branches;
    expect(branch?.head).toBe('q1');
    expect(uuids(branchEntries(s, branch!))).toEqual(['q1', 'b1']);
    expect(toolCallsIn(s, sidechain!.id).map((t) => t.id)).toEqual(['T9']);
    expect(toolCallsIn(s, null).map((t) => t.id)).toEqual(['T1']);
  });
});
