/**
 * The structure-only ("lean") strategy, in one place: what a build with `content: false` does not read of a
 * line (applied by `read/` before decoding), and what it keeps of a finished entry or metadata record. The
 * normalized entry is always built whole first (`normalize/`); this module only takes away.
 */
import type { ContentBlock, Entry } from '../model/entry.js';
import type { Unread } from './shrink-line.js';

/**
 * Cap on text kept per block of a lean entry: twice `firstPrompt`'s cap, so trimming agrees. Long strings are
 * cut to this many code units before parsing.
 */
export const LEAN_TEXT = 4000;

/** Lines longer than this many bytes are shrunk before decoding (shorter ones parse as fast whole). */
export const SHRINK_ABOVE = 8 * 1024;

/** What `leanBlock` keeps of a tool call's input; the rest is not read. */
const LEAN_INPUT_KEYS = [
  'subagent_type',
  'description',
  'file_path',
  'path',
  'name',
  'team_name',
  'run_in_background',
  'task_id',
] as const;

const LEAN_INPUT: Unread = {
  keys: Object.fromEntries([...LEAN_INPUT_KEYS, 'prompt'].map((key) => [key, false])),
  others: true,
};

/**
 * What a structure-only build never reads of a record (see `leanEntry`): tool outputs, thinking, tool inputs
 * but the few fields sub-agents are matched by, `toolUseResult` but its agent fields, progress data but its type
 * and agent, attachments but their type, file-history snapshots. Their strings are emptied before parsing;
 * `LEAN_TEXT` applies to the rest.
 */
export const LEAN_UNREAD: Unread = {
  keys: {
    message: {
      keys: {
        content: { items: { keys: { content: true, thinking: true, signature: true, input: LEAN_INPUT } } },
      },
    },
    toolUseResult: {
      keys: {
        agentId: false,
        agentType: false,
        status: false,
        runId: false,
        taskId: false,
        isAsync: false,
        agent_id: false,
        // What a spawn reports of its run (`SpawnReport`), for a run whose transcript is missing.
        totalTokens: false,
        totalDurationMs: false,
        totalToolUseCount: false,
        usage: false,
        // A TaskOutput answer (FORMAT.md §13.3): its status and output say how a background agent ended.
        task: { keys: { status: false, output: false }, others: true },
      },
      others: true,
    },
    toolArguments: LEAN_INPUT,
    thinking: true,
    data: { keys: { type: false, agentId: false }, others: true },
    attachment: { keys: { type: false }, others: true },
    snapshot: true,
  },
};

/** Extra fields of an entry that the analyses read; a lean entry keeps only these. */
const LEAN_EXTRA = [
  'agentId',
  'data',
  'parentToolUseID',
  'compactMetadata',
  'microcompactMetadata',
  'metadata',
  'is_active',
  'nestingLevel',
  'forkedFrom',
  'forkedSessionId',
  'upToMessageId',
  'teamName',
  'agentName',
] as const;

/**
 * Reduces a finished entry to what the analyses need, in place: content blocks shortened (`leanBlock`),
 * `toolUseResult` reduced to its agent fields, extra fields to `LEAN_EXTRA`. Memory then stays independent of
 * output sizes; the content can be read again from `Entry.source`.
 *
 * @param entry A normalized entry (it is changed and returned).
 */
export function leanEntry(entry: Entry): Entry {
  entry.content = entry.content.map(leanBlock);
  const result = entry.toolUseResult;
  if (isObject(result)) {
    const kept = pick(result, [
      'agentId',
      'agentType',
      'status',
      'runId',
      'taskId',
      'isAsync',
      'agent_id',
      'totalTokens',
      'totalDurationMs',
      'totalToolUseCount',
      'usage',
    ]);
    if (isObject(result.task)) kept.task = pick(result.task, ['status', 'output']);
    entry.toolUseResult = kept;
  } else if (result !== undefined) delete entry.toolUseResult;
  const extra = pick(entry.extra, LEAN_EXTRA);
  if (isObject(extra.data)) extra.data = pick(extra.data, ['type', 'agentId']);
  entry.extra = extra;
  return entry;
}

/** Metadata kept of a lean build: small fields only (snapshots can be large). */
export function leanMetadata(record: Record<string, unknown>): Record<string, unknown> {
  return pick(record, [
    'type',
    'summary',
    'leafUuid',
    'sessionId',
    'timestamp',
    'operation',
    'messageId',
    'totalCostUSD',
    'modelUsage',
    'forkedSessionId',
    'upToMessageId',
  ]);
}

/** What the analysis needs of a block when content is not kept. */
function leanBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return block.text.length > LEAN_TEXT ? { type: 'text', text: block.text.slice(0, LEAN_TEXT) } : block;
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: null };
    case 'tool_use': {
      const input = isObject(block.input) ? block.input : {};
      const prompt = typeof input.prompt === 'string' ? input.prompt.slice(0, LEAN_TEXT) : undefined;
      const kept = pick(input, LEAN_INPUT_KEYS);
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: prompt === undefined ? kept : { ...kept, prompt },
      };
    }
    case 'tool_result':
      return { type: 'tool_result', toolUseId: block.toolUseId, isError: block.isError, content: [] };
    case 'image':
      return { ...block, data: null };
    default:
      return { type: 'unknown', value: null };
  }
}

function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
