/** Generated extremes for agent linking: a chain of nested agents, and many agents of one session. */
import type { SessionSource } from '../src/index.js';
import { jsonl, memorySource } from './helpers.js';

const at = (i: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + i * 1000).toISOString();
const hex = (i: number) => i.toString(16).padStart(17, '0');

/** The lines of one level: a prompt, an Agent call spawning the next level, its result, a closing answer. */
function level(prefix: string, i: number, child: string | null, first: string | null): object[] {
  const base = { sessionId: 'S', version: '2.1.114', isSidechain: prefix !== 'm' };
  const lines: object[] = [
    {
      ...base,
      type: 'user',
      uuid: `${prefix}-p`,
      parentUuid: null,
      timestamp: at(i),
      message: { role: 'user', content: first ?? `task ${i}` },
    },
  ];
  if (child !== null) {
    const id = `toolu_${child}`;
    lines.push(
      {
        ...base,
        type: 'assistant',
        uuid: `${prefix}-c`,
        parentUuid: `${prefix}-p`,
        timestamp: at(i),
        requestId: `req_${prefix}`,
        message: {
          id: `msg_${prefix}`,
          model: 'claude-opus-4-7',
          role: 'assistant',
          type: 'message',
          content: [
            {
              type: 'tool_use',
              id,
              name: 'Agent',
              input: {
                subagent_type: 'general-purpose',
                description: `level ${i + 1}`,
                prompt: `task ${i + 1}`,
              },
            },
          ],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      {
        ...base,
        type: 'user',
        uuid: `${prefix}-r`,
        parentUuid: `${prefix}-c`,
        timestamp: at(i + 1),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: `done\nagentId: ${child}` }],
        },
        toolUseResult: { status: 'completed', agentId: child },
      },
    );
  }
  lines.push({
    ...base,
    type: 'assistant',
    uuid: `${prefix}-a`,
    parentUuid: child === null ? `${prefix}-p` : `${prefix}-r`,
    timestamp: at(i + 1),
    requestId: `req_${prefix}_a`,
    message: {
      id: `msg_${prefix}_a`,
      model: 'claude-opus-4-7',
      role: 'assistant',
      type: 'message',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  return lines;
}

/**
 * A session whose main conversation spawns agent 1, which spawns agent 2, … down to `depth` (flat on disk).
 *
 *   main ─Agent→ a1 ─Agent→ a2 ─ … ─Agent→ a<depth>
 */
export function agentChain(depth: number): SessionSource {
  const agents = [];
  for (let d = 1; d <= depth; d++) {
    const id = hex(d);
    agents.push(
      memorySource(
        `s/subagents/agent-${id}.jsonl`,
        jsonl(level(`a${d}`, d, d < depth ? hex(d + 1) : null, null)),
      ),
    );
  }
  return {
    id: 'S',
    main: memorySource('s.jsonl', jsonl(level('m', 0, hex(1), 'start'))),
    agents,
    agentMeta: [],
  };
}

/** A session whose main conversation spawns `count` agents one after the other, each in its own file. */
export function manyAgents(count: number): SessionSource {
  const main: object[] = [];
  const agents = [];
  let parent: string | null = null;
  for (let n = 1; n <= count; n++) {
    const lines = level(`m${n}`, n, hex(n), `ask ${n}`);
    (lines[0] as { parentUuid: string | null }).parentUuid = parent;
    parent = `m${n}-a`;
    main.push(...lines);
    agents.push(memorySource(`s/subagents/agent-${hex(n)}.jsonl`, jsonl(level(`a${n}`, n, null, null))));
  }
  return { id: 'S', main: memorySource('s.jsonl', jsonl(main)), agents, agentMeta: [] };
}
