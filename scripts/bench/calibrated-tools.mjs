// Tool calls of a calibrated session: the tool_use line, the progress lines Claude Code 2.1.39 hangs from it
// (hook pairs, bash_progress runs, mcp and web-search progress, agent_progress mirrors of a sub-agent's
// messages) and the user line with its tool_result, whose structured `toolUseResult` repeats much of the output
// (as real ones do). Sizes are log-normal, calibrated against ../shared/corpus/ARCHIVE-PROFILE.md.

import { writeAgentRun } from './calibrated-agent.mjs';

/** Tools by how often a real archive calls them (in ‰). */
const TOOLS = [
  ['Bash', 360],
  ['Read', 300],
  ['Edit', 90],
  ['Grep', 70],
  ['TodoWrite', 50],
  ['Glob', 40],
  ['Write', 30],
  ['WebFetch', 10],
  ['mcp__github__get_issue', 8],
  ['Task', 11],
  ['WebSearch', 3],
];
const TOOL_TOTAL = TOOLS.reduce((sum, [, weight]) => sum + weight, 0);

/** Draws a tool name, by weight. */
export function drawTool(w) {
  let left = w.random() * TOOL_TOTAL;
  for (const [name, weight] of TOOLS) {
    left -= weight;
    if (left < 0) return name;
  }
  return 'Bash';
}

const file = (w) =>
  `/home/dev/projects/app/${w.pick(['src', 'lib', 'test', 'docs'])}/${w.pick(['session', 'graph', 'page', 'usage', 'index', 'parse'])}${Math.floor(w.lognormal(8, 1, 400))}.ts`;

/** The input of a call of `name`. */
function inputOf(w, name) {
  switch (name) {
    case 'Bash':
      return { command: w.text(w.lognormal(150, 0.9, 3000)), description: w.text(w.lognormal(35, 0.4, 120)) };
    case 'Read':
      return { file_path: file(w) };
    case 'Edit':
      return {
        file_path: file(w),
        old_string: w.text(w.lognormal(450, 1, 20000)),
        new_string: w.text(w.lognormal(550, 1, 20000)),
      };
    case 'Write':
      return { file_path: file(w), content: w.text(w.lognormal(2400, 0.9, 60000)) };
    case 'Grep':
      return { pattern: w.text(14), path: '/home/dev/projects/app', output_mode: 'content', '-n': true };
    case 'Glob':
      return { pattern: `**/*${w.pick(['.ts', '.tsx', '.md', '.json'])}` };
    case 'TodoWrite':
      return {
        todos: Array.from({ length: 2 + Math.floor(w.lognormal(3, 0.5, 12)) }, () => {
          const content = w.text(w.lognormal(60, 0.5, 300));
          return { content, status: w.pick(['pending', 'in_progress', 'completed']), activeForm: content };
        }),
      };
    case 'WebFetch':
      return { url: `https://example.org/${w.text(20).replaceAll(' ', '-')}`, prompt: w.text(120) };
    case 'WebSearch':
      return { query: w.text(50) };
    case 'Task':
      return {
        description: w.text(30),
        prompt: w.text(w.lognormal(900, 0.6, 8000)),
        subagent_type: w.pick(['Explore', 'general-purpose', 'Plan']),
      };
    default:
      return { owner: 'dev', repo: 'app', issue_number: Math.floor(w.lognormal(100, 1, 5000)) };
  }
}

/** Output of a call: the result's text and the structured `toolUseResult` beside it. */
function outputOf(w, name, input) {
  if (w.chance(0.03)) {
    const message = `Error: ${w.text(w.lognormal(200, 1, 4000))}`;
    return { content: message, result: message, isError: true };
  }
  switch (name) {
    case 'Bash': {
      const stdout = w.text(w.lognormal(900, 1.75, 1000000));
      return { content: stdout, result: { stdout, stderr: '', interrupted: false, isImage: false } };
    }
    case 'Read': {
      const content = w.text(w.lognormal(3600, 1.3, 400000));
      const numLines = Math.ceil(content.length / 40);
      return {
        content,
        result: {
          type: 'text',
          file: { filePath: input.file_path, content, numLines, startLine: 1, totalLines: numLines },
        },
      };
    }
    case 'Edit': {
      const snippet = w.text(w.lognormal(700, 0.8, 20000));
      return {
        content: `The file ${input.file_path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`,
        result: {
          filePath: input.file_path,
          oldString: input.old_string,
          newString: input.new_string,
          originalFile: w.text(w.lognormal(6000, 1.2, 400000)),
          structuredPatch: [
            { oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [snippet.slice(0, 200)] },
          ],
          userModified: false,
          replaceAll: false,
        },
      };
    }
    case 'Write':
      return {
        content: `File created successfully at: ${input.file_path}`,
        result: { type: 'create', filePath: input.file_path, content: input.content, structuredPatch: [] },
      };
    case 'Grep': {
      const content = w.text(w.lognormal(1200, 1.3, 100000));
      return {
        content,
        result: {
          mode: 'content',
          numFiles: 3,
          filenames: [],
          content,
          numLines: Math.ceil(content.length / 60),
        },
      };
    }
    case 'Glob': {
      const content = w.text(w.lognormal(500, 1, 30000));
      return {
        content,
        result: {
          filenames: content.split(' ').slice(0, 50),
          durationMs: 12,
          numFiles: 50,
          truncated: false,
        },
      };
    }
    case 'TodoWrite':
      return {
        content:
          'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.',
        result: { oldTodos: [], newTodos: input.todos },
      };
    default: {
      const text = w.text(w.lognormal(3000, 0.9, 120000));
      return {
        content: [{ type: 'text', text }],
        result: { bytes: text.length, code: 200, codeText: 'OK', result: text, durationMs: 900 },
      };
    }
  }
}

/**
 * Writes one response's tool call and everything that hangs from it, up to its result, which becomes the
 * current parent. Returns whether a sub-agent ran.
 */
export async function writeToolCall(w, response, name, agents) {
  const s = w.state;
  const id = w.id('toolu_');
  const input = inputOf(w, name);
  const call = await w.entry(
    {
      type: 'assistant',
      message: {
        ...response.message,
        content: [{ type: 'tool_use', id, name, input, caller: { type: 'direct' } }],
      },
      requestId: response.requestId,
    },
    { ms: 1500 },
  );
  const progress = (data, toolUseID = id) =>
    w.entry({ type: 'progress', data, toolUseID, parentToolUseID: id }, { ms: 300 });
  const hooks = async (event) => {
    for (const command of HOOKS)
      await progress({ type: 'hook_progress', hookEvent: event, hookName: `${event}:${name}`, command });
  };
  if (w.chance(0.07)) await hooks('PreToolUse');
  if (name === 'Bash' && w.chance(0.6)) {
    const run = 1 + Math.floor(w.lognormal(2, 1, 60));
    for (let i = 0; i < run; i++)
      await progress(
        {
          type: 'bash_progress',
          output: w.text(w.lognormal(270, 0.8, 6000)),
          elapsedTimeSeconds: i + 1,
          totalLines: 10 + i,
        },
        `bash-progress-${i}`,
      );
  }
  if (name.startsWith('mcp__'))
    for (const status of ['started', 'completed'])
      await progress({ type: 'mcp_progress', status, serverName: 'github', toolName: 'get_issue' });
  if (name === 'WebSearch') {
    await progress({ type: 'query_update', query: input.query });
    await progress({ type: 'search_results_received', resultCount: 10, query: input.query });
  }
  let agent = null;
  if (name === 'Task') agent = await writeAgentRun(w, id, input, agents);
  if (w.chance(0.08)) await hooks('PostToolUse');
  const output = agent ? agent.output : outputOf(w, name, input);
  const block = { tool_use_id: id, type: 'tool_result', content: output.content };
  if (output.isError) block.is_error = true;
  await w.entry(
    {
      type: 'user',
      message: { role: 'user', content: [block] },
      toolUseResult: output.result,
      sourceToolAssistantUUID: call,
    },
    { parent: call, ms: 2000 },
  );
  if ((name === 'Edit' || name === 'Write') && !output.isError) {
    const messageId = s.lastPrompt ?? call;
    await w.meta({
      type: 'file-history-snapshot',
      messageId,
      snapshot: {
        messageId,
        trackedFileBackups: {
          [input.file_path]: { backupFileName: `${w.id('', 16)}@v2`, version: 2, backupTime: w.time(5) },
        },
        timestamp: w.time(5),
      },
      isSnapshotUpdate: true,
    });
  }
  return { agent: agent !== null };
}

const HOOKS = [
  'cd $CLAUDE_PLUGIN_ROOT/hooks && bun run ./guardian.ts',
  '/home/dev/.claude/hooks/tmux-waiting.sh clear',
];
