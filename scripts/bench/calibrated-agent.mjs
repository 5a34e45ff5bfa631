// A sub-agent run of a calibrated session, as Claude Code 2.1.39 records it: every message of the agent mirrored
// into the session file as an `agent_progress` line (each repeating the task's prompt), and, for a third of the runs,
// the agent's own transcript in `<session>/subagents/agent-<7 hex>.jsonl` whose line uuids are the mirrored
// messages' uuids. The others point at an agent file that does not exist, as in real archives.

/**
 * Writes the progress lines of one agent run below the current parent (the Task call) and maybe its file.
 * @returns the Task's result (`content` and `toolUseResult`).
 */
export async function writeAgentRun(w, taskId, input, agents) {
  const agentId = w.id('a', 7);
  const withFile = w.chance(0.3);
  const fileLines = [];
  let agentParent = null;
  let tokens = 0;
  const mirror = async (type, message, requestId) => {
    const uuid = w.uuid();
    const timestamp = w.time(900);
    const copy = requestId
      ? { type, timestamp, message, requestId, uuid }
      : { type, message, uuid, timestamp };
    await w.entry(
      {
        type: 'progress',
        data: {
          message: copy,
          normalizedMessages: [],
          type: 'agent_progress',
          prompt: input.prompt,
          agentId,
        },
        toolUseID: `agent_${w.id('msg_')}`,
        parentToolUseID: taskId,
      },
      { ms: 50 },
    );
    if (withFile) {
      const line = {
        parentUuid: agentParent,
        ...w.env,
        isSidechain: true,
        agentId,
        type,
        message,
        uuid,
        timestamp,
      };
      if (requestId) line.requestId = requestId;
      fileLines.push(line);
    }
    agentParent = uuid;
  };
  const answer = async (block, context) => {
    const usage = {
      input_tokens: 3 + Math.floor(w.lognormal(5, 1, 500)),
      cache_creation_input_tokens: Math.floor(w.lognormal(1500, 1, 40000)),
      cache_read_input_tokens: context,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 10 + Math.floor(w.lognormal(150, 1, 8000)),
      service_tier: 'standard',
    };
    usage.cache_creation.ephemeral_5m_input_tokens = usage.cache_creation_input_tokens;
    tokens += usage.output_tokens + usage.cache_creation_input_tokens;
    const id = w.id('msg_');
    const message = {
      model: 'claude-haiku-4-5-20251001',
      id,
      type: 'message',
      role: 'assistant',
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage,
    };
    await mirror('assistant', message, `req_${id.slice(4)}`);
  };
  await mirror('user', { role: 'user', content: [{ type: 'text', text: input.prompt }] });
  const steps = 2 + Math.floor(w.lognormal(9, 0.7, 60));
  let context = 12000;
  for (let i = 0; i < steps; i++) {
    const id = w.id('toolu_');
    const tool = w.pick(['Read', 'Grep', 'Glob', 'Bash']);
    const input =
      tool === 'Read' ? { file_path: `/home/dev/projects/app/src/m${i}.ts` } : { pattern: w.text(16) };
    await answer({ type: 'tool_use', id, name: tool, input, caller: { type: 'direct' } }, context);
    const content = w.text(w.lognormal(7000, 1.1, 300000));
    context += Math.floor(content.length / 16);
    await mirror('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content }] });
  }
  const final = w.text(w.lognormal(2200, 0.8, 30000));
  await answer({ type: 'text', text: final }, context);
  if (withFile) {
    w.agentFile(agentId, fileLines);
    agents.files += 1;
  }
  agents.runs += 1;
  const totalDurationMs = Math.floor(w.lognormal(60000, 0.8, 900000));
  const usage = { input_tokens: 40, output_tokens: tokens, cache_read_input_tokens: context };
  return {
    output: {
      content: [
        { type: 'text', text: final },
        {
          type: 'text',
          text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: ${tokens}\ntool_uses: ${steps}\nduration_ms: ${totalDurationMs}</usage>`,
        },
      ],
      result: {
        status: 'completed',
        prompt: input.prompt,
        agentId,
        content: [{ type: 'text', text: final }],
        totalDurationMs,
        totalTokens: tokens,
        totalToolUseCount: steps,
        usage,
      },
    },
  };
}
