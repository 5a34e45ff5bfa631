/**
 * The structure-only ("lean") strategy, in one place: what a build with `content: false` does not read of a
 * line (applied by `read/` before decoding), and what it keeps of a finished entry or metadata record. The
 * normalized entry is always built whole first (`normalize/`); this module only takes away.
 */
import type { ContentBlock, Entry, SourceRef } from '../model/entry.js';
import { readBlock, readContent } from '../normalize/content.js';
import { entryEnvelope, recordType } from '../normalize/entries.js';
import { shared } from '../normalize/shared-strings.js';
import type { RawRecord } from '../read/records.js';
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
/** Each of `LEAN_EXTRA`'s keys, and its bit in a mask of the keys a record holds. */
const LEAN_EXTRA_BITS: ReadonlyMap<string, number> = new Map(LEAN_EXTRA.map((key, i) => [key, 1 << i]));

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
  if (isObject(result)) entry.toolUseResult = leanResult(result);
  else if (result !== undefined) delete entry.toolUseResult;
  entry.extra = leanExtra(entry.extra);
  return entry;
}

/**
 * Normalizes an entry record straight into its lean form: the same entry as `leanEntry(normalizeEntry(record,
 * source))`, without building the parts that `leanEntry` would take away (tool outputs, tool inputs, thinking,
 * extra fields, most of `toolUseResult`).
 *
 * @param record A record with a uuid.
 * @param source Where it was read.
 */
export function normalizeLeanEntry(record: RawRecord, source: SourceRef): Entry {
  const message = isObject(record.message) ? record.message : null;
  // Seed records with a `toolName` are read by `readContent` (whatever `message.content` holds).
  const blocks =
    typeof record.toolName !== 'string' && message && Array.isArray(message.content) ? message.content : null;
  // Text blocks stay whole until the entry is classified (the kind is decided on the whole text).
  const content =
    blocks === null ? readContent(record, recordType(record), message) : blocks.map(leanBlockOf);
  const entry = entryEnvelope(record, source, content);
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!;
    if (block.type === 'text' && block.text.length > LEAN_TEXT) content[i] = leanBlock(block);
    else if (blocks === null) content[i] = leanBlock(block);
  }
  const result = record.toolUseResult;
  if (isObject(result)) entry.toolUseResult = leanResult(result);
  entry.extra = leanExtra(record);
  return entry;
}

/** The lean block of a content item as written (text blocks kept whole: see `normalizeLeanEntry`). */
function leanBlockOf(value: unknown): ContentBlock {
  if (isObject(value)) {
    if (value.type === 'tool_result' && typeof value.tool_use_id === 'string')
      return {
        type: 'tool_result',
        toolUseId: value.tool_use_id,
        isError: value.is_error === true,
        content: [],
      };
    if (value.type === 'tool_use' && typeof value.id === 'string') {
      return leanToolUse(
        value.id,
        typeof value.name === 'string' ? value.name : 'unknown',
        value.input ?? {},
      );
    }
    if (value.type === 'thinking') return { type: 'thinking', thinking: '', signature: null };
  }
  const block = readBlock(value);
  return block.type === 'text' ? block : leanBlock(block);
}

/** What a lean entry keeps of a `toolUseResult` object: its agent fields. */
function leanResult(result: Record<string, unknown>): Record<string, unknown> {
  // What a spawn's result reports of its run (`Sidechain.reported`) is kept for runs without a transcript.
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
  return kept;
}

/** The extra fields a lean entry keeps, from an entry's extra fields or the record itself (the same keys). */
function leanExtra(fields: Record<string, unknown>): Record<string, unknown> {
  // Most records hold none of these: one walk over their keys says so (cheaper than looking each one up), and
  // which ones the others hold, so only those are read.
  let held = 0;
  for (const key in fields) held |= LEAN_EXTRA_BITS.get(key) ?? 0;
  if (held === 0) return NO_EXTRA;
  const extra: Record<string, unknown> = {};
  for (let i = 0; i < LEAN_EXTRA.length; i++) {
    if ((held & (1 << i)) === 0) continue;
    const key = LEAN_EXTRA[i]!;
    const value = fields[key];
    if (value !== undefined) extra[key] = value;
  }
  if (isObject(extra.data)) extra.data = pick(extra.data, ['type', 'agentId']);
  if (typeof extra.agentId === 'string') extra.agentId = shared(extra.agentId);
  for (const _ in extra) return extra;
  return NO_EXTRA;
}

/** The extra fields of the many lean entries that keep none: one object for all, never changed. */
const NO_EXTRA: Record<string, unknown> = Object.freeze({});

/** A lean tool call: its input reduced to `LEAN_INPUT_KEYS` and a cut `prompt`. */
function leanToolUse(id: string, name: string, rawInput: unknown): ContentBlock {
  const input = isObject(rawInput) ? rawInput : {};
  const prompt = typeof input.prompt === 'string' ? input.prompt.slice(0, LEAN_TEXT) : undefined;
  const kept = pick(input, LEAN_INPUT_KEYS);
  return { type: 'tool_use', id, name, input: prompt === undefined ? kept : { ...kept, prompt } };
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
    case 'tool_use':
      return leanToolUse(block.id, block.name, block.input);
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
