// The parts of a session as data, for the statistics tests (`stats.test.ts`): statistics read structure only, so
// those tests describe sessions directly.
import { emptyUsage } from '../src/graph/usage.js';
import type { Entry, Usage } from '../src/model/entry.js';
import type { Compaction, Epoch, Session, Sidechain, ToolCall } from '../src/model/session.js';
import { prompt, sessionOf } from './helpers.js';

export function usage(input: number, output: number, more: Partial<Usage> = {}): Usage {
  return { ...emptyUsage(), inputTokens: input, outputTokens: output, responses: 1, ...more };
}

// A real entry gives every field of the model; tests set the few that statistics read.
const realEntry = (await sessionOf([prompt('base', null)])).entries[0]!;

export function entry(uuid: string, more: Partial<Entry> = {}): Entry {
  return { ...realEntry, uuid, kind: 'prompt', actor: 'human', sidechain: null, ...more };
}

export function sidechain(id: string, more: Partial<Sidechain> = {}): Sidechain {
  return {
    id,
    agentId: id.replace(/^agent-/, ''),
    agentType: 'general-purpose',
    description: null,
    role: 'task',
    storage: 'subagents',
    file: `p/s/subagents/${id}.jsonl`,
    spawn: null,
    link: 'agent-id',
    depth: 1,
    parentSidechain: null,
    parallelGroup: null,
    status: 'completed',
    rootUuid: null,
    entries: 4,
    startedAt: null,
    endedAt: null,
    usage: emptyUsage(),
    ...more,
  };
}

export function compaction(uuid: string, more: Partial<Compaction> = {}): Compaction {
  return {
    uuid,
    source: { file: 'p/s.jsonl', line: 1, offset: 0, length: 1 },
    kind: 'full',
    trigger: 'auto',
    form: 'boundary',
    timestamp: null,
    preTokens: null,
    postTokens: null,
    logicalParent: null,
    logicalParentResolution: 'none',
    summaryUuid: null,
    sidechain: null,
    epoch: 1,
    complete: true,
    ...more,
  };
}

export function epoch(index: number, entries: number): Epoch {
  return {
    index,
    compaction: index === 0 ? null : `c${index}`,
    entries,
    startedAt: null,
    endedAt: null,
    usage: emptyUsage(),
  };
}

export function tool(id: string, status: ToolCall['status']): ToolCall {
  return {
    id,
    name: 'Read',
    callUuid: status === 'result-without-call' ? null : `call-${id}`,
    resultUuid: status === 'missing-result' ? null : `result-${id}`,
    status,
    durationMs: null,
    batch: null,
    sidechain: null,
  };
}

// A real (empty) session gives every field of the model, so new fields do not break these tests.
const blank = await sessionOf([]);

export function session(id: string, more: Partial<Session> = {}): Session {
  const total = more.usage?.total ?? emptyUsage();
  return {
    ...blank,
    id,
    sessionIds: [id],
    project: { slug: 'p', cwd: '/p' },
    files: [{ path: `p/${id}.jsonl`, role: 'main', lines: 0, bytes: 0 }],
    entries: [],
    metadata: [],
    roots: [],
    orphans: [],
    branchPoints: [],
    branches: [],
    sidechains: [],
    compactions: [],
    epochs: [epoch(0, 0)],
    tools: [],
    usage: { total, byModel: {}, byEpoch: {}, bySidechain: {}, main: total },
    diagnostics: [],
    accounting: { lines: 0, entries: 0, metadata: 0, duplicates: 0, blank: 0, invalid: 0, recovered: 0 },
    ...more,
  };
}
