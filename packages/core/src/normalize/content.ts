/** Written → normalized content: the content blocks of a record, in every era's form. */
import type { ContentBlock, ToolResultItem } from '../model/entry.js';
import { setOwn } from '../own-keys.js';
import type { RawRecord } from '../read/records.js';
import { isObject, stringOrNull } from './values.js';

/**
 * Content blocks from `message.content`, a plain string message, or the seeds' flat forms.
 *
 * @param record The raw record.
 * @param type Its record type.
 * @param message Its `message` when that is an object.
 */
export function readContent(record: RawRecord, type: string, message: RawRecord | null): ContentBlock[] {
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

/**
 * One content block of `message.content`, as `readContent` reads it.
 *
 * @param value A content item as written.
 */
export function readBlock(value: unknown): ContentBlock {
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
      setOwn(extra, key, value[key]);
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
