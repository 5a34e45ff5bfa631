// Three sessions of pathological shape for the report's flowchart (2.1.x era): 10,000 retries at one parent (one
// prompt answered 10,000 times, each answer a different API message), and an agent whose transcript is one chain
// of 20,000 entries; and 500 short turns (a session drawn by parts). `cctrail report` on the folder must stay linear in its size.
//
//   node scripts/bench/flowchart-shapes.mjs OUT_DIR [--retries 10000] [--depth 20000] [--turns 500]

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A uuid-v4-shaped hash of a label. */
function uuidFrom(label) {
  const h = createHash('sha256').update(label).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const args = process.argv.slice(2);
const out = args[0];
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
if (!out) {
  console.error('usage: flowchart-shapes.mjs OUT_DIR [--retries N] [--depth N]');
  process.exit(2);
}
const project = join(out, '-home-dev-shapes');
mkdirSync(project, { recursive: true });
const t0 = Date.parse('2026-03-01T09:00:00Z');
const at = (i) => new Date(t0 + i * 1000).toISOString();
const base = (sessionId) => ({
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/shapes',
  sessionId,
  version: '2.1.39',
});
const user = (sessionId, uuid, parentUuid, content, i, more = {}) =>
  JSON.stringify({
    parentUuid,
    ...base(sessionId),
    type: 'user',
    message: { role: 'user', content },
    uuid,
    timestamp: at(i),
    ...more,
  });
const answer = (sessionId, uuid, parentUuid, id, content, i, more = {}) =>
  JSON.stringify({
    parentUuid,
    ...base(sessionId),
    message: {
      model: 'claude-opus-4-6',
      id,
      type: 'message',
      role: 'assistant',
      content,
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 3,
        output_tokens: 9,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 0,
      },
    },
    type: 'assistant',
    uuid,
    timestamp: at(i),
    ...more,
  });

// 1. Retries at one parent.
{
  const sid = uuidFrom('shapes/retries');
  const prompt = uuidFrom('shapes/retries/prompt');
  const lines = [user(sid, prompt, null, 'Say hello.', 0)];
  const n = opt('retries', 10_000);
  for (let i = 0; i < n; i++)
    lines.push(
      answer(
        sid,
        uuidFrom(`shapes/retries/${i}`),
        prompt,
        `msg_retry_${i}`,
        [{ type: 'text', text: `Hello #${i}` }],
        i + 1,
      ),
    );
  writeFileSync(join(project, `${sid}.jsonl`), `${lines.join('\n')}\n`);
}

// 2. A deep agent chain: the main conversation spawns an agent whose transcript is one long chain.
{
  const sid = uuidFrom('shapes/deep');
  const prompt = uuidFrom('shapes/deep/prompt');
  const call = uuidFrom('shapes/deep/call');
  const agentId = 'a0123456789abcdef';
  const main = [
    user(sid, prompt, null, 'Run the long agent.', 0),
    answer(
      sid,
      call,
      prompt,
      'msg_deep_call',
      [
        {
          type: 'tool_use',
          id: 'toolu_deep',
          name: 'Task',
          input: { description: 'Long chain', prompt: 'Go', subagent_type: 'general-purpose' },
        },
      ],
      1,
    ),
  ];
  const n = opt('depth', 20_000);
  const agent = [];
  let parent = null;
  for (let i = 0; i < n; i++) {
    const uuid = uuidFrom(`shapes/deep/agent/${i}`);
    const more = { isSidechain: true, agentId };
    agent.push(
      i % 2 === 0
        ? user(sid, uuid, parent, i === 0 ? 'Go' : `step ${i}`, i + 2, more)
        : answer(sid, uuid, parent, `msg_deep_${i}`, [{ type: 'text', text: `done ${i}` }], i + 2, more),
    );
    parent = uuid;
  }
  main.push(
    user(
      sid,
      uuidFrom('shapes/deep/result'),
      call,
      [{ type: 'tool_result', tool_use_id: 'toolu_deep', content: 'finished' }],
      n + 3,
      { toolUseResult: { agentId, status: 'completed' } },
    ),
  );
  writeFileSync(join(project, `${sid}.jsonl`), `${main.join('\n')}\n`);
  mkdirSync(join(project, sid, 'subagents'), { recursive: true });
  writeFileSync(join(project, sid, 'subagents', `agent-${agentId}.jsonl`), `${agent.join('\n')}\n`);
}
// 3. A long conversation: many short turns, drawn by parts.
{
  const sid = uuidFrom('shapes/turns');
  const lines = [];
  let parent = null;
  const n = opt('turns', 500);
  for (let i = 0; i < n; i++) {
    const p = uuidFrom(`shapes/turns/p${i}`);
    const a = uuidFrom(`shapes/turns/a${i}`);
    lines.push(user(sid, p, parent, `Question ${i}: what about "item #${i}" <b>&</b> 100%?`, 2 * i));
    lines.push(answer(sid, a, p, `msg_turn_${i}`, [{ type: 'text', text: `Answer ${i}` }], 2 * i + 1));
    parent = a;
  }
  writeFileSync(join(project, `${sid}.jsonl`), `${lines.join('\n')}\n`);
}
console.log(`wrote ${project}`);
