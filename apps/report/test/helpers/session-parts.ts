import { SCHEMA_VERSION } from '@cctrail/core';
import type { ContentBlock, Entry, Session, Usage } from '../../src/views/model.js';

/**
 * The parts of hand-made sessions matching core's model: usage, entries (7 s apart on one clock), answers, tool
 * results, a session around entries, and a linear session (`demo.ts` re-exports what tests use).
 */

export const HOSTILE_LABEL = '"]);click A call alert(1)%%{init:{"securityLevel":"loose"}}%%';

export function usage(input: number, cacheRead = 0, cacheCreate = 0, output = 50): Usage {
  return {
    inputTokens: input,
    outputTokens: output,
    cacheCreationInputTokens: cacheCreate,
    cacheReadInputTokens: cacheRead,
    cacheCreation5mTokens: cacheCreate,
    cacheCreation1hTokens: 0,
    responses: 1,
  };
}

const START = Date.parse('2026-01-05T10:00:00Z');
let clock = START;

/** Starts the entries' clock again: the next entry is 7 s after 2026-01-05 10:00 UTC. */
export function resetClock(): void {
  clock = START;
}

export function entry(uuid: string, parent: string | null, partial: Partial<Entry> = {}): Entry {
  clock += 7_000;
  return {
    uuid,
    type: partial.actor === 'claude' || partial.actor === 'subagent' ? 'assistant' : 'user',
    subtype: null,
    kind: 'prompt',
    actor: 'human',
    parentUuid: parent,
    parent,
    logicalParentUuid: null,
    timestamp: new Date(clock).toISOString(),
    sessionId: 'demo',
    version: '2.0.27',
    cwd: '/home/dev/shop',
    gitBranch: 'main',
    sidechain: null,
    epoch: 0,
    active: true,
    branchPoint: null,
    message: null,
    content: [],
    usage: null,
    isMeta: false,
    isCompactSummary: false,
    isApiError: false,
    isSidechain: partial.sidechain !== undefined && partial.sidechain !== null,
    source: { file: 'demo.jsonl', line: 1, offset: 0, length: 1 },
    extra: {},
    ...partial,
  };
}

export const text = (t: string): ContentBlock => ({ type: 'text', text: t });

export function claude(
  uuid: string,
  parent: string | null,
  content: ContentBlock[],
  u: Usage,
  msg: string,
  extra: Partial<Entry> = {},
): Entry {
  return entry(uuid, parent, {
    kind: 'assistant',
    actor: 'claude',
    content,
    usage: u,
    message: { id: msg, requestId: `req_${msg}`, model: 'claude-sonnet-4-5', stopReason: null },
    ...extra,
  });
}

export function result(
  uuid: string,
  parent: string,
  toolUseId: string,
  out: string,
  isError = false,
  extra: Partial<Entry> = {},
): Entry {
  return entry(uuid, parent, {
    kind: 'tool-result',
    actor: 'tool',
    content: [{ type: 'tool_result', toolUseId, isError, content: [{ type: 'text', text: out }] }],
    ...extra,
  });
}

export function emptySession(id: string, entries: Entry[]): Session {
  const u = usage(0, 0, 0, 0);
  return {
    schemaVersion: SCHEMA_VERSION,
    id,
    sessionIds: [id],
    project: { slug: '-home-dev-shop', cwd: '/home/dev/shop' },
    files: [{ path: `${id}.jsonl`, role: 'main', lines: entries.length, bytes: 1000 }],
    title: null,
    firstPrompt: null,
    startedAt: entries[0]?.timestamp ?? null,
    endedAt: entries[entries.length - 1]?.timestamp ?? null,
    versions: ['2.0.27'],
    models: ['claude-sonnet-4-5'],
    entries,
    metadata: [],
    roots: entries.filter((e) => e.parent === null).map((e) => e.uuid),
    orphans: [],
    leaf: entries[entries.length - 1]?.uuid ?? null,
    branchPoints: [],
    branches: [],
    sidechains: [],
    compactions: [],
    epochs: [
      { index: 0, compaction: null, entries: entries.length, startedAt: null, endedAt: null, usage: u },
    ],
    tools: [],
    responses: entries
      .filter((e) => e.usage && e.message)
      .map((e) => ({
        id: e.message?.id ?? null,
        requestId: e.message?.requestId ?? null,
        model: e.message?.model ?? null,
        entries: [e.uuid],
        usage: e.usage as Usage,
        timestamp: e.timestamp,
        sidechain: e.sidechain,
        epoch: e.epoch,
      })),
    usage: { total: u, byModel: {}, byEpoch: {}, bySidechain: {}, main: u },
    diagnostics: [],
    accounting: {
      lines: entries.length,
      entries: entries.length,
      metadata: 0,
      duplicates: 0,
      blank: 0,
      invalid: 0,
      recovered: 0,
    },
  };
}

/** A linear session of `n` prompt/answer entries. */
export function linearSession(id: string, n: number): Session {
  const entries: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? null : `${id}-${i - 1}`;
    entries.push(
      i % 2 === 0
        ? entry(`${id}-${i}`, parent, { content: [text(`Prompt number ${i}`)] })
        : claude(
            `${id}-${i}`,
            parent,
            [text(`Answer **${i}**`)],
            usage(10, 1000 + i * 10, 100),
            `msg_${id}_${i}`,
          ),
    );
  }
  return emptySession(id, entries);
}
