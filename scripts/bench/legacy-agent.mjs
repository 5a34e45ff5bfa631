// The sub-agent file of a legacy session (see legacy-session.mjs): a .meta.json sidecar and a transcript of
// tool calls under <session>/subagents/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uuidFrom } from './random.mjs';

/** Writes a sub-agent's transcript and meta file; returns the bytes written. */
export function writeLegacyAgent(projectDir, sessionId, agentId, call, env, random, slice, time) {
  const dir = join(projectDir, sessionId, 'subagents');
  mkdirSync(dir, { recursive: true });
  const meta = JSON.stringify({ agentType: call.input.subagent_type, description: call.input.description });
  writeFileSync(join(dir, `agent-${agentId}.meta.json`), meta);
  const lines = [];
  const agentEnv = { ...env, isSidechain: true, agentId };
  let parent = null;
  const add = (record) => {
    lines.push(JSON.stringify(record));
    parent = record.uuid;
  };
  // An assistant line of the agent (the block is built by the caller, so random draws keep their order).
  const answer = (messageId, block, usage) =>
    add({
      parentUuid: parent,
      ...agentEnv,
      message: {
        model: 'claude-haiku-4-5',
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [block],
        usage,
      },
      requestId: `req_${messageId}`,
      type: 'assistant',
      uuid: uuidFrom(random),
      timestamp: time(900),
    });
  add({
    parentUuid: null,
    ...agentEnv,
    type: 'user',
    message: { role: 'user', content: call.input.prompt },
    uuid: uuidFrom(random),
    timestamp: time(100),
  });
  const steps = 2 + Math.floor(random() * 8);
  for (let i = 0; i < steps; i++) {
    const id = `toolu_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
    const messageId = `msg_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
    const usage = {
      input_tokens: 5,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 9000 + i * 700,
      output_tokens: 120,
    };
    answer(messageId, { type: 'tool_use', id, name: 'Grep', input: { pattern: slice(12) } }, usage);
    add({
      parentUuid: parent,
      ...agentEnv,
      type: 'user',
      message: {
        role: 'user',
        content: [
          { tool_use_id: id, type: 'tool_result', content: slice(500 + Math.floor(random() * 5000)) },
        ],
      },
      uuid: uuidFrom(random),
      timestamp: time(400),
    });
  }
  const messageId = `msg_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
  answer(
    messageId,
    { type: 'text', text: slice(400) },
    { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 15000, output_tokens: 300 },
  );
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(dir, `agent-${agentId}.jsonl`), text);
  return Buffer.byteLength(meta) + Buffer.byteLength(text);
}
