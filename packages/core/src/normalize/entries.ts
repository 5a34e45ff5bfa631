/**
 * Written → normalized: turns a raw record (any era, or a seeds' variant) into an `Entry`. After this module
 * no code looks at raw records again.
 */

import { readUsage } from '../graph/usage.js';
import type { Unread } from '../lean/shrink.js';
import type {
  ContentBlock,
  Entry,
  EntryKind,
  MessageInfo,
  SourceRef,
  ToolResultItem,
  Usage,
} from '../model.js';
import { parseLine, type RawRecord } from '../read/records.js';

/** Top-level fields that `Entry` represents; all others go to `Entry.extra`. */
const ENVELOPE = new Set([
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'type',
  'subtype',
  'timestamp',
  'sessionId',
  'version',
  'cwd',
  'gitBranch',
  'isSidechain',
  'isMeta',
  'isCompactSummary',
  'isApiErrorMessage',
  'toolUseResult',
  'requestId',
]);

/** Record types of the seeds that are conversation entries (FORMAT.md §11). */
const SEED_ENTRY_TYPES = new Set([
  'human',
  'tool_use',
  'tool_result',
  'thinking',
  'compact_prelude',
  'compact_recap',
]);

const KNOWN_ENTRY_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'progress',
  'attachment',
  'compact_system',
  ...SEED_ENTRY_TYPES,
]);

/** Whether a record is a DAG entry (it has a uuid) rather than a metadata line. */
export function isEntryRecord(record: RawRecord): boolean {
  return typeof record.uuid === 'string' && record.uuid.length > 0;
}

/** Whether the record type is one cctrail knows. */
export function isKnownType(type: string): boolean {
  return KNOWN_ENTRY_TYPES.has(type) || KNOWN_METADATA_TYPES.has(type);
}

const KNOWN_METADATA_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'pr-link',
  'permission-mode',
  'last-prompt',
  'compact_system',
  'mode',
  'ai-title',
  'custom-title',
  'agent-name',
  'agent-color',
  'agent-setting',
  'tag',
  'task-summary',
  'worktree-state',
  'content-replacement',
  'attribution-snapshot',
  'file-history-delta',
  'cost-state',
  'continued-in',
  'relocated',
]);

/**
 * Normalizes an entry record.
 *
 * @param record A record with a uuid.
 * @param source Where it was read.
 * @param keepContent Keep content blocks, `toolUseResult` and extra fields.
 */
export function normalizeEntry(record: RawRecord, source: SourceRef, keepContent: boolean): Entry {
  const type = typeof record.type === 'string' ? record.type : 'unknown';
  const rawMessage = record.message;
  const message = isObject(rawMessage) ? rawMessage : null;
  const content = readContent(record, type, message);
  const usage = message ? readUsage(message.usage) : null;
  const isApiError = record.isApiErrorMessage === true;
  const subtype = readSubtype(record, type);

  const entry: Entry = {
    uuid: record.uuid as string,
    type,
    subtype,
    kind: 'unknown',
    actor: 'system',
    parentUuid: stringOrNull(record.parentUuid),
    parent: null,
    logicalParentUuid: stringOrNull(record.logicalParentUuid),
    timestamp: stringOrNull(record.timestamp),
    sessionId: stringOrNull(record.sessionId),
    version: stringOrNull(record.version),
    cwd: stringOrNull(record.cwd),
    gitBranch: stringOrNull(record.gitBranch),
    isSidechain: record.isSidechain === true,
    sidechain: null,
    epoch: 0,
    active: true,
    branchPoint: null,
    message: readMessageInfo(record, type, message),
    content,
    usage: usage && !isZero(usage) ? usage : null,
    isMeta: record.isMeta === true,
    isCompactSummary: record.isCompactSummary === true || type === 'compact_recap',
    isApiError,
    source,
    extra: {},
  };
  entry.kind = classify(entry, record);
  entry.actor = baseActor(entry.kind);
  if (keepContent) {
    if (record.toolUseResult !== undefined) entry.toolUseResult = record.toolUseResult;
    entry.extra = extraFields(record, message);
  } else {
    entry.content = content.map(leanBlock);
    const result = record.toolUseResult;
    if (isObject(result)) entry.toolUseResult = pick(result, ['agentId', 'agentType', 'status']);
    entry.extra = pick(record, [
      'agentId',
      'data',
      'parentToolUseID',
      'compactMetadata',
      'microcompactMetadata',
      'metadata',
      'is_active',
      'nestingLevel',
    ]);
    if (isObject(entry.extra.data)) entry.extra.data = pick(entry.extra.data, ['type', 'agentId']);
  }
  return entry;
}

/**
 * Cap on text kept per block when content is not kept: twice `firstPrompt`'s cap, so trimming agrees. Long
 * strings are cut to this many code units before parsing in structure-only builds.
 */
export const LEAN_TEXT = 4000;

/** What `leanBlock` keeps of a tool call's input; the rest is not read. */
const LEAN_INPUT_KEYS = ['subagent_type', 'description', 'file_path', 'path'] as const;

const LEAN_INPUT: Unread = {
  keys: Object.fromEntries([...LEAN_INPUT_KEYS, 'prompt'].map((key) => [key, false])),
  others: true,
};

/**
 * What a structure-only build never reads of a record (see `leanBlock` and `normalizeEntry`): tool outputs,
 * thinking, tool inputs but the few fields sub-agents are matched by, `toolUseResult` but its agent fields,
 * progress data but its type and agent, attachments but their type, file-history snapshots. Their strings are
 * emptied before parsing; `LEAN_TEXT` applies to the rest.
 */
export const LEAN_UNREAD: Unread = {
  keys: {
    message: {
      keys: {
        content: { items: { keys: { content: true, thinking: true, signature: true, input: LEAN_INPUT } } },
      },
    },
    toolUseResult: { keys: { agentId: false, agentType: false, status: false }, others: true },
    toolArguments: LEAN_INPUT,
    thinking: true,
    data: { keys: { type: false, agentId: false }, others: true },
    attachment: { keys: { type: false }, others: true },
    snapshot: true,
  },
};

/** What the analysis needs of a block when content is not kept: memory stays independent of output sizes. */
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

function pick(value: RawRecord, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function readSubtype(record: RawRecord, type: string): string | null {
  if (typeof record.subtype === 'string') return record.subtype;
  if (type === 'compact_system' && typeof record.message === 'string') return record.message;
  if (type === 'progress' && isObject(record.data) && typeof record.data.type === 'string')
    return record.data.type;
  if (type === 'attachment' && isObject(record.attachment) && typeof record.attachment.type === 'string') {
    return record.attachment.type;
  }
  return null;
}

function readMessageInfo(record: RawRecord, type: string, message: RawRecord | null): MessageInfo | null {
  if (type !== 'assistant' && type !== 'tool_use' && type !== 'thinking') return null;
  return {
    id: message ? stringOrNull(message.id) : null,
    requestId: stringOrNull(record.requestId),
    model: message ? stringOrNull(message.model) : null,
    stopReason: message ? stringOrNull(message.stop_reason) : null,
  };
}

/** Content blocks from `message.content`, a plain string message, or the seeds' flat forms. */
function readContent(record: RawRecord, type: string, message: RawRecord | null): ContentBlock[] {
  // Seeds: {"subtype":"tool_use","toolName":"Task","toolArguments":{…}} on an assistant record.
  if (typeof record.toolName === 'string' && (record.subtype === 'tool_use' || type === 'tool_use')) {
    const id = typeof record.toolUseId === 'string' ? record.toolUseId : `seed-${String(record.uuid)}`;
    return [{ type: 'tool_use', id, name: record.toolName, input: record.toolArguments ?? {} }];
  }
  if (message === null) {
    if (typeof record.message === 'string' && type !== 'compact_system')
      return [{ type: 'text', text: record.message }];
    if (typeof record.content === 'string' && type !== 'system')
      return [{ type: 'text', text: record.content }];
    if (type === 'thinking' && typeof record.thinking === 'string') {
      return [{ type: 'thinking', thinking: record.thinking, signature: null }];
    }
    return [];
  }
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(readBlock);
}

function readBlock(value: unknown): ContentBlock {
  if (!isObject(value) || typeof value.type !== 'string') return { type: 'unknown', value };
  switch (value.type) {
    case 'text':
      if (typeof value.text === 'string')
        return withExtra({ type: 'text', text: value.text }, value, ['type', 'text']);
      break;
    case 'thinking':
      return withExtra(
        {
          type: 'thinking',
          thinking: typeof value.thinking === 'string' ? value.thinking : '',
          signature: stringOrNull(value.signature),
        },
        value,
        ['type', 'thinking', 'signature'],
      );
    case 'tool_use':
      if (typeof value.id === 'string') {
        return withExtra(
          {
            type: 'tool_use',
            id: value.id,
            name: typeof value.name === 'string' ? value.name : 'unknown',
            input: value.input ?? {},
          },
          value,
          ['type', 'id', 'name', 'input'],
        );
      }
      break;
    case 'tool_result':
      if (typeof value.tool_use_id === 'string') {
        return {
          type: 'tool_result',
          toolUseId: value.tool_use_id,
          isError: value.is_error === true,
          content: readResultContent(value.content),
        };
      }
      break;
    case 'image':
      return readImage(value);
  }
  return { type: 'unknown', value };
}

function withExtra<T extends ContentBlock>(block: T, value: RawRecord, known: string[]): T {
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      extra ??= {};
      extra[key] = value[key];
    }
  }
  if (extra) (block as { extra?: Record<string, unknown> }).extra = extra;
  return block;
}

function readResultContent(content: unknown): ToolResultItem[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [{ type: 'unknown', value: content }];
  return content.map((item): ToolResultItem => {
    if (isObject(item) && item.type === 'text' && typeof item.text === 'string')
      return { type: 'text', text: item.text };
    if (isObject(item) && item.type === 'image') return readImage(item);
    return { type: 'unknown', value: item };
  });
}

function readImage(value: RawRecord): {
  type: 'image';
  mediaType: string | null;
  data: string | null;
  bytes: number;
} {
  const source = isObject(value.source) ? value.source : {};
  const data = typeof source.data === 'string' ? source.data : null;
  return {
    type: 'image',
    mediaType: stringOrNull(source.media_type),
    data,
    bytes: data ? Math.floor((data.length * 3) / 4) : 0,
  };
}

/** Decides what an entry is from its type, flags and content. */
function classify(entry: Entry, record: RawRecord): EntryKind {
  const { type, subtype, content } = entry;
  switch (type) {
    case 'user':
    case 'human': {
      if (entry.isCompactSummary) return 'compact-summary';
      if (content.some((b) => b.type === 'tool_result')) return 'tool-result';
      if (entry.isMeta) return 'meta';
      const text = firstText(content);
      if (text !== null) {
        const trimmed = text.trimStart();
        if (trimmed.startsWith('[Request interrupted by user')) return 'interrupt';
        if (
          /^<(command-name|command-message|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr)>/.test(
            trimmed,
          )
        ) {
          return 'command';
        }
        if (/^<(local-command-caveat|system-reminder|task-notification)>/.test(trimmed)) return 'meta';
      }
      return 'prompt';
    }
    case 'assistant':
    case 'thinking':
    case 'tool_use':
      return entry.isApiError ? 'api-error' : 'assistant';
    case 'tool_result':
      return 'tool-result';
    case 'system':
      if (subtype === 'compact_boundary') return 'compact-boundary';
      if (subtype === 'microcompact_boundary') return 'microcompact-boundary';
      if (subtype === 'api_error') return 'api-error';
      if (subtype === 'local_command') return 'command';
      return 'system';
    case 'compact_system':
      return subtype === 'conversation_compacted' ? 'compact-boundary' : 'system';
    case 'compact_prelude':
      return record.parentUuid === null || record.parentUuid === undefined ? 'compact-boundary' : 'system';
    case 'compact_recap':
      return 'compact-summary';
    case 'progress':
      return 'progress';
    case 'attachment':
      return 'attachment';
    default:
      return 'unknown';
  }
}

/** The actor of an entry in the main conversation; sidechains adjust it (`sidechains.ts`). */
function baseActor(kind: EntryKind): Entry['actor'] {
  switch (kind) {
    case 'prompt':
    case 'interrupt':
    case 'command':
      return 'human';
    case 'assistant':
    case 'api-error':
      return 'claude';
    case 'tool-result':
      return 'tool';
    default:
      return 'system';
  }
}

function extraFields(record: RawRecord, message: RawRecord | null): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (ENVELOPE.has(key)) continue;
    if (key === 'message' && message) {
      const rest: Record<string, unknown> = {};
      for (const k of Object.keys(message)) if (k !== 'content') rest[k] = message[k];
      extra.message = rest;
      continue;
    }
    if (key === 'message' && typeof record.message === 'string') continue;
    extra[key] = record[key];
  }
  return extra;
}

/** Text blocks Claude Code injects around what the person typed (IDE context, reminders). */
const INJECTED = /^\s*<(ide_selection|ide_opened_file|system-reminder|ide_diagnostics)>[\s\S]*<\/\1>\s*$/;

/**
 * What the person typed in a prompt or slash command: the text blocks other than injected context, and for a
 * slash command `/name args`. Null when there is none.
 */
export function promptText(content: readonly ContentBlock[]): string | null {
  const parts: string[] = [];
  for (const block of content) {
    if (block.type !== 'text' || INJECTED.test(block.text)) continue;
    const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(block.text);
    if (name) {
      const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(block.text);
      parts.push(`${name[1]!.trim()} ${args?.[1]?.trim() ?? ''}`.trim());
    } else if (
      !/^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr|local-command-caveat)>/.test(
        block.text,
      )
    ) {
      parts.push(block.text);
    }
  }
  const text = parts.join('\n').trim();
  return text === '' ? null : text;
}

/** Whether a command entry is something the person typed (a slash command or a `!` shell command). */
export function isTypedCommand(entry: Entry): boolean {
  if (entry.kind !== 'command') return false;
  const text = firstText(entry.content) ?? '';
  return (
    /^\s*<(command-name|command-message|bash-input)>/.test(text) ||
    (entry.type === 'system' && /<command-name>/.test(text))
  );
}

/** First text of an entry's content, or null. */
export function firstText(content: readonly ContentBlock[]): string | null {
  for (const block of content) if (block.type === 'text') return block.text;
  return null;
}

function isZero(usage: Usage): boolean {
  return (
    usage.inputTokens === 0 &&
    usage.outputTokens === 0 &&
    usage.cacheCreationInputTokens === 0 &&
    usage.cacheReadInputTokens === 0
  );
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Restores the content of an entry built with `content: false`, from the text of its source line: content
 * blocks, `toolUseResult` and extra fields come from the line; everything the analysis decided (links, kind,
 * actor, epoch, sidechain, active, branch point) is kept from `lean`. Returns `lean` itself when the line no
 * longer holds the record.
 *
 * @param lean An entry of a session built with `content: false`.
 * @param line The text of the line at `lean.source`.
 */
export function withContent(lean: Entry, line: string): Entry {
  const record = recordAt(line, lean.source.part ?? 0);
  if (!record || record.uuid !== lean.uuid) return lean;
  const full = normalizeEntry(record, lean.source, true);
  return {
    ...lean,
    content: full.content,
    extra: full.extra,
    ...(full.toolUseResult === undefined ? {} : { toolUseResult: full.toolUseResult }),
  };
}

/** The record verbatim, from the text of its source line (for metadata kept lean). */
export function recordAt(line: string, part: number): RawRecord | null {
  const parsed = parseLine(line);
  return parsed.kind === 'records' ? (parsed.records[part] ?? null) : null;
}
