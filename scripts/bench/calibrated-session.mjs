// One session shaped like the sessions of a real archive (../shared/corpus/ARCHIVE-PROFILE.md; Claude Code
// 2.1.39, FORMAT.md): summaries and SessionStart hooks at the top, then turns: a file-history snapshot, the
// prompt (a rewind now and then), API responses split one block per line (thinking, text, tool_use) sharing
// message.id and usage, each tool call followed by its progress lines and its result, and the turn's end (Stop
// hooks, stop_hook_summary, turn_duration). Queue operations, local commands, PR links, API errors and
// microcompactions are sprinkled at their real rates; a full compaction comes when the context would overflow.

import { sessionWriter } from './calibrated-lines.mjs';
import { drawTool, writeToolCall } from './calibrated-tools.mjs';
import { prng } from './random.mjs';

const MODEL = 'claude-opus-4-6';

/**
 * Writes one session (and its agent files) of about `bytes` bytes into `projectDir`.
 * @returns the bytes written (agent files included), the turns, the agent runs and the agent files.
 */
export async function writeCalibratedSession(projectDir, sessionId, bytes, seed, pool, project) {
  const random = prng(seed);
  const w = sessionWriter(projectDir, sessionId, random, pool, project);
  const s = w.state;
  const agents = { runs: 0, files: 0 };
  let context = 12000;
  let turns = 0;
  s.lastPrompt = null;
  let lastPromptParent = null;

  const hooks = async (event, name, count) => {
    for (let i = 0; i < count; i++) {
      const id = w.uuid();
      await w.entry(
        {
          type: 'progress',
          data: { type: 'hook_progress', hookEvent: event, hookName: name, command: HOOK_COMMANDS[i % 4] },
          parentToolUseID: id,
          toolUseID: id,
        },
        { ms: 20 },
      );
    }
  };
  const system = (subtype, fields, options) => w.entry({ type: 'system', subtype, ...fields }, options);

  /** One API response: maybe thinking, maybe text, then `calls` tool calls (parallel when more than one). */
  const response = async (calls, { thinking, text }) => {
    const id = w.id('msg_');
    const usage = {
      input_tokens: 3 + Math.floor(w.lognormal(4, 1, 2000)),
      cache_creation_input_tokens: Math.floor(w.lognormal(450, 1.2, 60000)),
      cache_read_input_tokens: context,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 5 + Math.floor(w.lognormal(250, 1.1, 20000)),
      service_tier: 'standard',
      inference_geo: 'global',
    };
    usage.cache_creation.ephemeral_5m_input_tokens = usage.cache_creation_input_tokens;
    context += usage.cache_creation_input_tokens + usage.output_tokens;
    const r = {
      requestId: `req_${w.id('', 24)}`,
      message: {
        model: MODEL,
        id,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    };
    const block = (content) =>
      w.entry(
        { type: 'assistant', message: { ...r.message, content: [content] }, requestId: r.requestId },
        { ms: 1500 },
      );
    if (thinking)
      await block({
        type: 'thinking',
        thinking: w.text(w.lognormal(850, 1, 40000)),
        signature: '[REDACTED_SIGNATURE]',
      });
    if (text) await block({ type: 'text', text: w.text(w.lognormal(220, 1.1, 30000)) });
    for (let c = 0; c < calls; c++) {
      if (w.chance(0.001))
        await system('api_error', {
          level: 'error',
          error: { status: 529 },
          retryInMs: 1000,
          retryAttempt: 1,
          maxRetries: 10,
        });
      await writeToolCall(w, r, drawTool(w), agents);
    }
  };

  const turn = async () => {
    turns += 1;
    if (w.chance(0.08)) {
      const content = w.text(w.lognormal(120, 1, 2000));
      await w.meta({
        type: 'queue-operation',
        operation: 'enqueue',
        timestamp: w.time(5),
        sessionId,
        content,
      });
      await w.meta({
        type: 'queue-operation',
        operation: w.chance(0.8) ? 'dequeue' : 'remove',
        timestamp: w.time(5),
        sessionId,
      });
    }
    // A rewind now and then: the new prompt hangs from the parent of the previous prompt.
    const rewind = s.lastPrompt !== null && w.chance(0.04);
    const parent = rewind ? lastPromptParent : s.parent;
    const prompt = w.uuid();
    await w.meta({
      type: 'file-history-snapshot',
      messageId: prompt,
      snapshot: { messageId: prompt, trackedFileBackups: {}, timestamp: w.time(10) },
      isSnapshotUpdate: false,
    });
    await w.entry(
      {
        type: 'user',
        message: { role: 'user', content: w.text(w.lognormal(420, 1.1, 40000)) },
        thinkingMetadata: { maxThinkingTokens: 31999 },
        todos: [],
        permissionMode: 'default',
      },
      { parent, uuid: prompt, ms: 30000 },
    );
    s.lastPrompt = prompt;
    lastPromptParent = parent;
    if (w.chance(0.3))
      await w.entry({
        type: 'user',
        message: {
          role: 'user',
          content: `<system-reminder>${w.text(w.lognormal(500, 0.8, 8000))}</system-reminder>`,
        },
        isMeta: true,
      });
    let calls = Math.max(1, Math.round(w.lognormal(9, 0.9, 150)));
    while (calls > 0 && s.written < bytes) {
      const group = w.chance(0.1) ? Math.min(calls, 2 + Math.floor(w.random() * 2)) : 1;
      await response(group, { thinking: w.chance(0.68), text: w.chance(0.4) });
      calls -= group;
    }
    if (w.chance(0.04))
      await w.entry({
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      });
    else await response(0, { thinking: w.chance(0.3), text: true });
    if (w.chance(0.5)) await hooks('Stop', 'Stop', 2);
    if (w.chance(0.97)) {
      const hookInfos = HOOK_COMMANDS.map((command) => ({ command }));
      await system('stop_hook_summary', {
        hookCount: hookInfos.length,
        hookInfos,
        hookErrors: [],
        preventedContinuation: false,
        stopReason: '',
        hasOutput: true,
        level: 'suggestion',
        toolUseID: w.uuid(),
      });
    }
    if (w.chance(0.6))
      await system('turn_duration', {
        durationMs: Math.floor(w.lognormal(90000, 1, 3600000)),
        isMeta: false,
      });
    if (w.chance(0.006)) {
      await system('local_command', {
        content:
          '<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>',
        level: 'info',
        isMeta: false,
      });
      await system('local_command', {
        content: '<local-command-stdout>Kept model as Default</local-command-stdout>',
        level: 'info',
        isMeta: false,
      });
    }
    if (w.chance(0.01))
      await w.meta({
        type: 'pr-link',
        prNumber: turns,
        prUrl: `https://github.com/dev/app/pull/${turns}`,
        prRepository: 'dev/app',
        sessionId,
        timestamp: w.time(5),
      });
    if (w.chance(0.009)) {
      const saved = Math.floor(context / 4);
      await system('microcompact_boundary', {
        content: 'Context microcompacted',
        level: 'info',
        isMeta: false,
        microcompactMetadata: {
          trigger: 'auto',
          preTokens: context,
          tokensSaved: saved,
          compactedToolIds: [],
          clearedAttachmentUUIDs: [],
        },
      });
      context -= saved;
    }
    if (context > 160000) await compact();
  };

  /** A full compaction: the boundary (a new root), its summary, the SessionStart:compact hooks. */
  const compact = async () => {
    const manual = w.chance(0.1);
    await system(
      'compact_boundary',
      {
        logicalParentUuid: s.parent,
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        compactMetadata: { trigger: manual ? 'manual' : 'auto', preTokens: context },
      },
      { parent: null, ms: 40000 },
    );
    await w.entry({
      type: 'user',
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation that ran out of context. ${w.text(w.lognormal(6000, 0.5, 30000))}`,
      },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
    });
    await hooks('SessionStart', 'SessionStart:compact', 2);
    context = 14000 + Math.floor(w.lognormal(8000, 0.5, 40000));
    s.lastPrompt = null;
  };

  const summaries = w.chance(0.35) ? 1 + Math.floor(w.random() * 2) : 0;
  for (let i = 0; i < summaries; i++)
    await w.meta({ type: 'summary', summary: w.text(w.lognormal(50, 0.4, 200)), leafUuid: w.uuid() });
  await hooks('SessionStart', 'SessionStart:startup', 1 + Math.floor(w.random() * 3));
  while (s.written < bytes) await turn();
  await w.close();
  return { bytes: s.written, turns, agents: agents.runs, agentFiles: agents.files };
}

const HOOK_COMMANDS = [
  '/home/dev/.claude/hooks/tmux-waiting.sh mark',
  'cd $CLAUDE_PLUGIN_ROOT/hooks && bun run ./dist/on-stop-test.js',
  '$CLAUDE_PLUGIN_ROOT/hooks/stop-hook.sh',
  '$CLAUDE_PLUGIN_ROOT/scripts/waiting-overlay.sh clear',
];
