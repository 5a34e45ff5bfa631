/**
 * Written → normalized: turns a raw record (any era, or a seeds' variant) into an `Entry`, always whole. After
 * this stage no code looks at raw records again.
 */
import type { ContentBlock, Entry, MessageInfo, SourceRef, Usage } from '../model/entry.js';
import { setOwn } from '../own-keys.js';
import type { RawRecord } from '../read/records.js';
import { timestampOrNull } from '../read/timestamps.js';
import { baseActor, classify } from './classify.js';
import { readContent } from './content.js';
import { keepBlocksOnce, keepOnceIn } from './repeated-text.js';
import { shared } from './shared-strings.js';
import { readUsage } from './usage-fields.js';
import { isObject, stringOrNull } from './values.js';

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

/** Extra fields whose values repeat from line to line: kept once (`shared`). */
const REPEATED_EXTRA = new Set([
  'userType',
  'entrypoint',
  'slug',
  'permissionMode',
  'agentId',
  'teamName',
  'agentName',
]);
/** Fields of `message` whose values repeat from line to line. */
const REPEATED_MESSAGE = new Set(['model', 'role', 'type', 'stop_reason', 'stop_sequence']);

/**
 * Normalizes an entry record into the full entry: content blocks, `toolUseResult` and extra fields included.
 *
 * @param record A record with a uuid.
 * @param source Where it was read.
 */
export function normalizeEntry(record: RawRecord, source: SourceRef): Entry {
  const message = isObject(record.message) ? record.message : null;
  const content = keepBlocksOnce(readContent(record, recordType(record), message));
  const entry = entryEnvelope(record, source, content);
  if (record.toolUseResult !== undefined) entry.toolUseResult = keepOnceIn(record.toolUseResult);
  entry.extra = extraFields(record, message);
  return entry;
}

/** The record's `type`, or `unknown`. */
export function recordType(record: RawRecord): string {
  return typeof record.type === 'string' ? shared(record.type) : 'unknown';
}

/**
 * The entry of a record with the given content blocks, classified, but without `toolUseResult` and with no
 * extra fields: the part of an entry that a full and a structure-only normalization share.
 *
 * @param record A record with a uuid.
 * @param source Where it was read.
 * @param content Its content blocks (what `kind` is decided from).
 */
export function entryEnvelope(record: RawRecord, source: SourceRef, content: ContentBlock[]): Entry {
  const type = recordType(record);
  const rawMessage = record.message;
  const message = isObject(rawMessage) ? rawMessage : null;
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
    timestamp: timestampOrNull(record.timestamp),
    sessionId: stringOrNull(shared(record.sessionId)),
    version: stringOrNull(shared(record.version)),
    cwd: stringOrNull(shared(record.cwd)),
    gitBranch: stringOrNull(shared(record.gitBranch)),
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
  return entry;
}

function readSubtype(record: RawRecord, type: string): string | null {
  if (typeof record.subtype === 'string') return shared(record.subtype);
  if (type === 'compact_system' && typeof record.message === 'string') return record.message;
  if (type === 'progress' && isObject(record.data) && typeof record.data.type === 'string')
    return shared(record.data.type);
  if (type === 'attachment' && isObject(record.attachment) && typeof record.attachment.type === 'string') {
    return shared(record.attachment.type);
  }
  return null;
}

function readMessageInfo(record: RawRecord, type: string, message: RawRecord | null): MessageInfo | null {
  if (type !== 'assistant' && type !== 'tool_use' && type !== 'thinking') return null;
  return {
    id: message ? stringOrNull(message.id) : null,
    requestId: stringOrNull(record.requestId),
    model: message ? stringOrNull(shared(message.model)) : null,
    stopReason: message ? stringOrNull(shared(message.stop_reason)) : null,
  };
}

function extraFields(record: RawRecord, message: RawRecord | null): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (ENVELOPE.has(key)) continue;
    if (key === 'message' && message) {
      const rest: Record<string, unknown> = {};
      for (const k of Object.keys(message))
        if (k !== 'content') setOwn(rest, k, REPEATED_MESSAGE.has(k) ? shared(message[k]) : message[k]);
      extra.message = rest;
      continue;
    }
    if (key === 'message' && typeof record.message === 'string') continue;
    setOwn(
      extra,
      key,
      REPEATED_EXTRA.has(key) ? shared(record[key]) : key === 'data' ? keepOnceIn(record[key]) : record[key],
    );
  }
  return extra;
}

function isZero(usage: Usage): boolean {
  return (
    usage.inputTokens === 0 &&
    usage.outputTokens === 0 &&
    usage.cacheCreationInputTokens === 0 &&
    usage.cacheReadInputTokens === 0
  );
}
