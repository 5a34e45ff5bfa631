// The benchmark's first shape of a session (generator version 2, kept as the `legacy` profile): 2.1.x records,
// one content block per assistant line, few progress lines, tool results from 1 KB to 1 MB carrying 94 % of the
// bytes, sub-agent files under <session>/subagents/ with .meta.json, compactions and rewinds. Its bytes are those
// version 2 wrote.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { writeLegacyAgent } from './legacy-agent.mjs';
import { prng, uuidFrom } from './random.mjs';

/**
 * Writes one session (and its agent files) of about `bytes` bytes into `projectDir`: no tool result is larger
 * than what is left of the budget (but 1 KB), so that small sessions do not overshoot it by a large result.
 * @returns the number of bytes written, agent files included.
 */
export async function writeLegacySession(projectDir, sessionId, bytes, seed, pool) {
  const random = prng(seed);
  const out = createWriteStream(join(projectDir, `${sessionId}.jsonl`), { highWaterMark: 1 << 20 });
  let written = 0;
  let clock = Date.parse('2026-01-05T09:00:00Z') + Math.floor(random() * 86400000 * 60);
  const time = (ms = 800) => {
    clock += Math.floor(ms * (0.5 + random()));
    return new Date(clock).toISOString();
  };
  const slice = (n) => {
    const at = Math.floor(random() * (pool.length - n - 1));
    let s = pool.slice(at, at + n);
    if (s.endsWith('\\')) s = `${s.slice(0, -1)}x`;
    return s;
  };
  const env = {
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/project',
    sessionId,
    version: '2.1.39',
    gitBranch: 'main',
  };
  const emit = async (stream, record) => {
    const line = `${JSON.stringify(record)}\n`;
    if (!stream.write(line)) await once(stream, 'drain');
    return Buffer.byteLength(line);
  };
  const write = async (record) => {
    written += await emit(out, record);
  };
  let parent = null;
  let context = 4000;
  let lastPrompt = null;
  let turn = 0;
  let agentCount = 0;

  const root = uuidFrom(random);
  await write({
    parentUuid: null,
    ...env,
    type: 'progress',
    data: {
      type: 'hook_progress',
      hookEvent: 'SessionStart',
      hookName: 'SessionStart:startup',
      command: 'echo start',
    },
    parentToolUseID: 'h0',
    toolUseID: 'h0',
    timestamp: time(),
    uuid: root,
  });
  parent = root;

  while (written < bytes) {
    turn += 1;
    // A rewind now and then: the new prompt hangs from the parent of the previous prompt.
    const rewind = lastPrompt !== null && random() < 0.04;
    const promptUuid = uuidFrom(random);
    await write({
      type: 'file-history-snapshot',
      messageId: promptUuid,
      snapshot: { messageId: promptUuid, trackedFileBackups: {}, timestamp: time(10) },
      isSnapshotUpdate: false,
    });
    await write({
      parentUuid: rewind ? lastPrompt.parent : parent,
      ...env,
      type: 'user',
      message: { role: 'user', content: slice(80 + Math.floor(random() * 400)) },
      uuid: promptUuid,
      timestamp: time(20000),
    });
    lastPrompt = { uuid: promptUuid, parent: rewind ? lastPrompt.parent : parent };
    parent = promptUuid;

    const steps = 1 + Math.floor(random() * 6);
    for (let step = 0; step < steps && written < bytes; step++) {
      const messageId = `msg_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
      const requestId = `req_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
      const read = Math.floor(random() * 6000);
      const usage = {
        input_tokens: 3 + Math.floor(random() * 20),
        cache_creation_input_tokens: read,
        cache_read_input_tokens: context,
        cache_creation: { ephemeral_5m_input_tokens: read, ephemeral_1h_input_tokens: 0 },
        output_tokens: 20 + Math.floor(random() * 800),
        service_tier: 'standard',
      };
      context += read;
      const assistant = async (block) => {
        const uuid = uuidFrom(random);
        await write({
          parentUuid: parent,
          ...env,
          message: {
            model: 'claude-opus-4-6',
            id: messageId,
            type: 'message',
            role: 'assistant',
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
          requestId,
          type: 'assistant',
          uuid,
          timestamp: time(1500),
        });
        parent = uuid;
        return uuid;
      };
      if (random() < 0.3)
        await assistant({
          type: 'thinking',
          thinking: slice(200 + Math.floor(random() * 2000)),
          signature: 'sig',
        });
      await assistant({ type: 'text', text: slice(40 + Math.floor(random() * 600)) });
      if (random() < 0.25 && step === steps - 1) continue;

      // Tool calls: sometimes parallel, sometimes a sub-agent.
      const calls = random() < 0.2 ? 2 : 1;
      const ids = [];
      for (let c = 0; c < calls; c++) {
        const id = `toolu_${uuidFrom(random).replaceAll('-', '').slice(0, 24)}`;
        const agent = random() < 0.03;
        const input = agent
          ? {
              subagent_type: random() < 0.5 ? 'Explore' : 'general-purpose',
              description: slice(30),
              prompt: slice(200),
            }
          : random() < 0.5
            ? { file_path: `/home/dev/project/src/file${Math.floor(random() * 40)}.ts` }
            : { command: slice(40) };
        const name = agent ? 'Task' : 'file_path' in input ? 'Read' : 'Bash';
        ids.push({ id, uuid: await assistant({ type: 'tool_use', id, name, input }), name, input });
      }
      let resultParent = parent;
      for (const call of ids) {
        const progress = uuidFrom(random);
        await write({
          parentUuid: call.uuid,
          ...env,
          type: 'progress',
          data: { type: 'bash_progress', output: slice(60), elapsedTimeSeconds: 1 },
          toolUseID: `bash-progress-0`,
          parentToolUseID: call.id,
          uuid: progress,
          timestamp: time(300),
        });
        // Tool results from 1 KB to 1 MB, most of them small (as in real archives).
        const size = Math.floor(1024 * 1000 ** (random() ** 2.5));
        const uuid = uuidFrom(random);
        let toolUseResult = { stdout: 'see content', stderr: '', interrupted: false };
        if (call.name === 'Task') {
          agentCount += 1;
          const agentId = `a${uuidFrom(random).replaceAll('-', '').slice(0, 16)}`;
          toolUseResult = {
            status: 'completed',
            prompt: call.input.prompt,
            agentId,
            agentType: call.input.subagent_type,
            content: [{ type: 'text', text: slice(200) }],
            totalDurationMs: 9000,
            totalTokens: 12000,
            totalToolUseCount: 3,
          };
          written += writeLegacyAgent(projectDir, sessionId, agentId, call, env, random, slice, time);
        }
        const isError = random() < 0.03;
        await write({
          parentUuid: resultParent,
          ...env,
          type: 'user',
          message: {
            role: 'user',
            content: [
              {
                tool_use_id: call.id,
                type: 'tool_result',
                content: slice(Math.min(size, pool.length - 2, Math.max(1024, bytes - written))),
                is_error: isError,
              },
            ],
          },
          uuid,
          timestamp: time(2000),
          toolUseResult,
          sourceToolAssistantUUID: call.uuid,
        });
        resultParent = uuid;
      }
      parent = resultParent;
    }
    const timing = uuidFrom(random);
    await write({
      parentUuid: parent,
      ...env,
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 30000,
      timestamp: time(10),
      uuid: timing,
      isMeta: false,
    });
    parent = timing;

    // Compaction when the context would overflow.
    if (context > 160000) {
      const manual = random() < 0.3;
      const boundary = uuidFrom(random);
      await write({
        parentUuid: null,
        logicalParentUuid: parent,
        ...env,
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        timestamp: time(40000),
        uuid: boundary,
        level: 'info',
        compactMetadata: { trigger: manual ? 'manual' : 'auto', preTokens: context },
      });
      const summary = uuidFrom(random);
      await write({
        parentUuid: boundary,
        ...env,
        type: 'user',
        message: {
          role: 'user',
          content: `This session is being continued from a previous conversation that ran out of context. ${slice(3000)}`,
        },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
        uuid: summary,
        timestamp: time(100),
      });
      parent = summary;
      context = 12000;
      lastPrompt = null;
    }
  }
  out.end();
  await once(out, 'finish');
  return { bytes: written, turns: turn, agents: agentCount };
}
