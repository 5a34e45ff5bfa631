// A session whose sub-agents form one chain: the main conversation spawns agent 1, which spawns agent 2, …
// down to agent N (2.1.x layout: <session>/subagents/agent-<id>.jsonl with its .meta.json). The report must
// stay linear in N (its agent pages, their links both ways).
//
//   node scripts/bench/deep-agents.mjs OUT_DIR --depth 20000

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the project folder of one session with a chain of `depth` sub-agents into `out`. */
export function writeDeepAgents(out, depth) {
  const session = '00000000-0000-4000-8000-00000000dee9';
  const project = join(out, '-home-dev-deep-agents');
  const agents = join(project, session, 'subagents');
  mkdirSync(agents, { recursive: true });
  let clock = Date.parse('2026-05-01T10:00:00.000Z');
  const at = () => {
    clock += 1000;
    return new Date(clock).toISOString();
  };
  const base = {
    userType: 'external',
    cwd: '/home/dev/deep',
    sessionId: session,
    version: '2.1.114',
    gitBranch: 'main',
  };
  const uuid = (kind, i) => `${kind.padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const agentId = (i) => `a${String(i).padStart(16, '0')}`;
  const tool = (i) => `toolu_deep${String(i).padStart(12, '0')}`;
  const spawn = (i, parent, sidechain, id) => ({
    ...base,
    ...(sidechain ? { agentId: id } : {}),
    parentUuid: parent,
    isSidechain: sidechain,
    type: 'assistant',
    uuid: uuid('2', i),
    timestamp: at(),
    message: {
      model: 'claude-opus-4-7',
      id: `msg_deep${i}`,
      type: 'message',
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: tool(i + 1),
          name: 'Agent',
          input: {
            description: `Level ${i + 1}`,
            subagent_type: 'chain-link',
            prompt: `Go one level deeper (${i + 1}).`,
          },
        },
      ],
      stop_reason: 'tool_use',
      usage: {
        input_tokens: 5,
        output_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100,
      },
    },
    requestId: `req_deep${i}`,
  });
  const result = (i, parent, sidechain, id) => ({
    ...base,
    ...(sidechain ? { agentId: id } : {}),
    parentUuid: parent,
    isSidechain: sidechain,
    type: 'user',
    uuid: uuid('3', i),
    timestamp: at(),
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: tool(i + 1), content: `Level ${i + 1} done.` }],
    },
    toolUseResult: {
      status: 'completed',
      agentId: agentId(i + 1),
      content: [{ type: 'text', text: `Level ${i + 1} done.` }],
    },
  });
  const main = [
    {
      ...base,
      parentUuid: null,
      isSidechain: false,
      type: 'user',
      uuid: uuid('1', 0),
      timestamp: at(),
      message: { role: 'user', content: `Go ${depth} levels deep.` },
    },
    spawn(0, uuid('1', 0), false, null),
  ];
  for (let i = 1; i <= depth; i++) {
    const id = agentId(i);
    const lines = [
      {
        ...base,
        agentId: id,
        parentUuid: null,
        isSidechain: true,
        type: 'user',
        uuid: uuid('1', i),
        timestamp: at(),
        message: { role: 'user', content: `Go one level deeper (${i}).` },
      },
    ];
    if (i < depth) lines.push(spawn(i, uuid('1', i), true, id));
    const last = lines.at(-1).uuid;
    writeFileSync(
      join(agents, `agent-${id}.meta.json`),
      JSON.stringify({ agentType: 'chain-link', description: `Level ${i}`, toolUseId: tool(i) }),
    );
    // Results are written after the deeper agents ran: keep them for the end of the file.
    lines.push(
      i < depth
        ? result(i, last, true, id)
        : {
            ...base,
            agentId: id,
            parentUuid: last,
            isSidechain: true,
            type: 'assistant',
            uuid: uuid('4', i),
            timestamp: at(),
            message: {
              model: 'claude-opus-4-7',
              id: `msg_end${i}`,
              type: 'message',
              role: 'assistant',
              content: [{ type: 'text', text: 'Bottom reached.' }],
              stop_reason: 'end_turn',
              usage: {
                input_tokens: 5,
                output_tokens: 3,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 100,
              },
            },
            requestId: `req_end${i}`,
          },
    );
    writeFileSync(join(agents, `agent-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
  main.push(result(0, uuid('2', 0), false, null));
  writeFileSync(join(project, `${session}.jsonl`), `${main.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  const at = process.argv.indexOf('--depth');
  const depth = at > 0 ? Number(process.argv[at + 1]) : 20000;
  if (!out || !Number.isInteger(depth) || depth < 1) {
    console.error('usage: node scripts/bench/deep-agents.mjs OUT_DIR --depth N');
    process.exit(2);
  }
  writeDeepAgents(out, depth);
  console.log(`wrote a chain of ${depth} sub-agents to ${out}`);
}
