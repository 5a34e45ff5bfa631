import { buildSession, type Session, type SessionSource, type TranscriptSource } from '../src/index.js';

/** A transcript held in memory, delivered in chunks of `chunkSize` bytes to exercise line splitting. */
export function memorySource(
  path: string,
  text: string | Uint8Array,
  chunkSize = 64 * 1024,
): TranscriptSource {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return {
    path,
    async *read() {
      for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
    },
  };
}

/** JSONL text from records (objects are stringified, strings kept as written). */
export function jsonl(records: readonly (object | string)[]): string {
  return `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
}

/** Builds a session from in-memory records: the main file and optional agent files (name → records). */
export function sessionOf(
  records: readonly (object | string)[],
  agents: Record<string, readonly (object | string)[]> = {},
  meta: Record<string, object> = {},
): Promise<Session> {
  const source: SessionSource = {
    id: 'test-session',
    main: records.length > 0 ? memorySource('s.jsonl', jsonl(records)) : null,
    agents: Object.entries(agents).map(([name, lines]) =>
      memorySource(`s/subagents/${name}.jsonl`, jsonl(lines)),
    ),
    agentMeta: Object.entries(meta).map(([name, value]) => ({
      path: `s/subagents/${name}.meta.json`,
      text: JSON.stringify(value),
    })),
  };
  return buildSession(source);
}

let clock = Date.parse('2026-01-01T10:00:00.000Z');
/** A timestamp one second after the previous one. */
export function tick(): string {
  clock += 1000;
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

/** An assistant line holding one block. */
export function answer(
  uuid: string,
  parentUuid: string | null,
  block: object | string,
  msg = `msg_${uuid}`,
  more: object = {},
) {
  const content = [typeof block === 'string' ? { type: 'text', text: block } : block];
  return {
    type: 'assistant',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    requestId: `req_${msg}`,
    message: {
      id: msg,
      model: 'claude-test',
      role: 'assistant',
      content,
      usage: { input_tokens: 10, output_tokens: 5 },
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
  more: object = {},
  isError = false,
) {
  return {
    type: 'user',
    uuid,
    parentUuid,
    timestamp: tick(),
    sessionId: 'S',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok', is_error: isError }],
    },
    ...more,
  };
}

/** A progress line. */
export function progress(
  uuid: string,
  parentUuid: string | null,
  data: object = { type: 'bash_progress' },
  more: object = {},
) {
  return { type: 'progress', uuid, parentUuid, timestamp: tick(), sessionId: 'S', data, ...more };
}

/** The entry with this uuid, or a test failure. */
export function byUuid(session: Session, uuid: string) {
  const entry = session.entries.find((e) => e.uuid === uuid);
  if (!entry) throw new Error(`no entry ${uuid}`);
  return entry;
}

/** Checks the accounting invariant: every input line is an entry, metadata, duplicate, blank or invalid. */
export function accounted(session: Session): boolean {
  const a = session.accounting;
  return a.lines + a.recovered === a.entries + a.metadata + a.duplicates + a.blank + a.invalid;
}
