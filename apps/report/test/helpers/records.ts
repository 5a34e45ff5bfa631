import { buildSession, type Session, type SessionSource, type TranscriptSource } from '@cctrail/core';

/**
 * Sessions built by core from JSONL records written in the test, for the view rules that depend on how core
 * links and classifies entries (tiny graphs drawn in a comment beside each test).
 */

function memorySource(path: string, text: string): TranscriptSource {
  const bytes = new TextEncoder().encode(text);
  return {
    path,
    async *read() {
      yield bytes;
    },
  };
}

const jsonl = (records: readonly object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** Builds a session from its main file's records and its agent files' (name → records). */
export function sessionOf(
  records: readonly object[],
  agents: Record<string, readonly object[]> = {},
): Promise<Session> {
  const source: SessionSource = {
    id: 'test-session',
    main: memorySource('s.jsonl', jsonl(records)),
    agents: Object.entries(agents).map(([name, lines]) =>
      memorySource(`s/subagents/${name}.jsonl`, jsonl(lines)),
    ),
  };
  return buildSession(source);
}

let clock = Date.parse('2026-01-01T10:00:00.000Z');
/** A timestamp `seconds` after the previous one. */
export function tick(seconds = 1): string {
  clock += seconds * 1000;
  return new Date(clock).toISOString();
}

/** A user prompt line. */
export function prompt(uuid: string, parentUuid: string | null, text = `prompt ${uuid}`, more: object = {}) {
  return {
    type: 'user',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    message: { role: 'user', content: text },
    ...more,
  };
}

/** An assistant line holding the given blocks (one API response may span several lines with one `msg`). */
export function answer(
  uuid: string,
  parentUuid: string | null,
  blocks: object[] | string,
  msg = `msg_${uuid}`,
  more: object = {},
) {
  const content = typeof blocks === 'string' ? [{ type: 'text', text: blocks }] : blocks;
  return {
    type: 'assistant',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    requestId: `req_${msg}`,
    message: {
      id: msg,
      model: 'claude-sonnet-4-5',
      role: 'assistant',
      content,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 1000 },
    },
    ...more,
  };
}

/** A tool_use block. */
export function toolUse(id: string, name = 'Read', input: object = { file_path: '/x' }) {
  return { type: 'tool_use', id, name, input };
}

/** A user line with one tool_result. */
export function toolResult(
  uuid: string,
  parentUuid: string | null,
  toolUseId: string,
  content: unknown = 'ok',
  more: object = {},
) {
  return {
    type: 'user',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content }] },
    ...more,
  };
}

/** A progress line. */
export function progress(uuid: string, parentUuid: string | null, data: object = { type: 'bash_progress' }) {
  return { type: 'progress', uuid, parentUuid, timestamp: tick(), sessionId: 'S', data };
}

/** A system line (a hook's output, a turn's duration). */
export function system(uuid: string, parentUuid: string | null, subtype = 'stop_hook_summary') {
  return {
    type: 'system',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    subtype,
    content: `${subtype} text`,
    level: 'info',
  };
}
