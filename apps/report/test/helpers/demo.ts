import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '@cctrail/core';
import { costTotals, responseCosts, sessionCost, sessionDuplicates } from '@cctrail/core/archive';
import type {
  ArchiveIndex,
  ArchiveSessionSummary,
  ContentBlock,
  Entry,
  Session,
  Usage,
} from '../../src/views/model.js';

/**
 * Hand-made sessions matching core's model (schemaVersion 2), for unit tests and the end-to-end build.
 * `demoSession()` has every feature: a rewind, a sub-agent, a compaction with a re-read, tool errors,
 * an image and hostile content.
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

let clock = Date.parse('2026-01-05T10:00:00Z');

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

const text = (t: string): ContentBlock => ({ type: 'text', text: t });

function claude(
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

function result(
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

function emptySession(id: string, entries: Entry[]): Session {
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

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The feature-complete demo session. */
export function demoSession(): Session {
  clock = Date.parse('2026-01-05T10:00:00Z');
  const big = Array.from({ length: 120 }, (_, i) => `line ${i}: ${'x'.repeat(40)}`).join('\n');
  const e: Entry[] = [
    entry('u1', null, { content: [text(`Fix the checkout bug ${HOSTILE_LABEL}`)] }),
    claude(
      'a1',
      'u1',
      [
        { type: 'thinking', thinking: 'Let me look at **cart.ts** first.', signature: null },
        { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'src/cart.ts' } },
      ],
      usage(12, 0, 9_000),
      'm1',
    ),
    result('r1', 'a1', 't1', `export const cart = [];\n${big}`),
    claude(
      'a2',
      'r1',
      [
        text(
          'The cart is empty. Here is a fix:\n\n```ts\nexport const cart: string[] = [];\n```\n\n<script>window.__xss = 1</script>\n\n[click me](javascript:window.__xss=2)\n\n<img src=x onerror="window.__xss=3">',
        ),
      ],
      usage(5, 9_000, 2_000),
      'm2',
    ),
    // Rewind: u2a abandoned, u2b active.
    entry('u2a', 'a2', { content: [text('Actually, use a Set')], active: false, branchPoint: 'a2' }),
    claude('a3a', 'u2a', [text('Using a Set.')], usage(5, 11_000, 300), 'm3a', {
      active: false,
      branchPoint: 'a2',
    }),
    entry('u2b', 'a2', { content: [text('Run the tests with an agent please')] }),
    claude(
      'a3',
      'u2b',
      [
        {
          type: 'tool_use',
          id: 't2',
          name: 'Task',
          input: { subagent_type: 'test-runner', description: 'Run the tests', prompt: 'Run pnpm test' },
        },
      ],
      usage(5, 11_000, 500),
      'm3',
    ),
    // Sidechain.
    entry('s1', 'a3', { actor: 'claude-as-user', sidechain: 'agent-x1', content: [text('Run pnpm test')] }),
    claude(
      's2',
      's1',
      [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'pnpm test' } }],
      usage(3, 0, 4_000),
      'ms2',
      { actor: 'subagent', sidechain: 'agent-x1' },
    ),
    result('s3', 's2', 't3', 'FAIL src/cart.test.ts\n  expected 1, received 0', true, {
      sidechain: 'agent-x1',
    }),
    claude('s4', 's3', [text('One test fails: `cart.test.ts`.')], usage(3, 4_000, 200), 'ms4', {
      actor: 'subagent',
      sidechain: 'agent-x1',
    }),
    result('r2', 'a3', 't2', 'One test fails: cart.test.ts'),
    claude('a4', 'r2', [text('A test fails; compacting soon.')], usage(5, 150_000, 30_000), 'm4'),
    // Compaction.
    entry('c1', null, {
      kind: 'compact-boundary',
      actor: 'system',
      type: 'system',
      subtype: 'compact_boundary',
      logicalParentUuid: 'a4',
      epoch: 1,
      content: [],
    }),
    entry('cs', 'c1', {
      kind: 'compact-summary',
      isCompactSummary: true,
      epoch: 1,
      content: [text('Summary: fixing the cart.')],
    }),
    entry('u3', 'cs', {
      epoch: 1,
      content: [
        text('Continue, look at cart.ts again'),
        { type: 'image', mediaType: 'image/png', data: PNG, bytes: 70 },
        { type: 'image', mediaType: 'text/html', data: 'PHNjcmlwdD4=', bytes: 8 },
      ],
    }),
    claude(
      'a5',
      'u3',
      [{ type: 'tool_use', id: 't4', name: 'Read', input: { file_path: 'src/cart.ts' } }],
      usage(5, 0, 20_000),
      'm5',
      { epoch: 1 },
    ),
    result('r5', 'a5', 't4', `export const cart = [];\n${big}`, false, { epoch: 1 }),
    claude(
      'a6',
      'r5',
      [{ type: 'tool_use', id: 't5', name: 'Bash', input: { command: 'rm -rf /nope' } }],
      usage(5, 20_000, 3_000),
      'm6',
      { epoch: 1 },
    ),
    result('r6', 'a6', 't5', '<img src=x onerror="window.__xss=4"> permission denied', true, { epoch: 1 }),
    claude('a7', 'r6', [text('Done. \uD800 lone surrogate survives.')], usage(5, 23_000, 500), 'm7', {
      epoch: 1,
    }),
  ];
  const s = emptySession('demo-session', e);
  s.title = `Fix the checkout bug <b>now</b>`;
  s.firstPrompt = 'Fix the checkout bug';
  s.roots = ['u1', 'c1'];
  s.leaf = 'a7';
  s.branchPoints = [
    { uuid: 'a2', kind: 'rewind', children: ['u2a', 'u2b'], activeChild: 'u2b' },
    { uuid: 'a3', kind: 'tool-progress', children: ['s1', 'r2'], activeChild: null },
  ];
  s.branches = [
    {
      branchPoint: 'a2',
      head: 'u2a',
      leaf: 'a3a',
      entries: 2,
      startedAt: e[4]?.timestamp ?? null,
      endedAt: e[5]?.timestamp ?? null,
    },
  ];
  s.sidechains = [
    {
      id: 'agent-x1',
      agentId: 'x1',
      agentType: 'test-runner',
      description: 'Run the tests',
      role: 'task',
      storage: 'subagents',
      file: 'demo/subagents/agent-x1.jsonl',
      spawn: { toolUseId: 't2', entryUuid: 'a3' },
      link: 'agent-id',
      depth: 1,
      parentSidechain: null,
      parallelGroup: null,
      status: 'completed',
      rootUuid: 's1',
      entries: 4,
      startedAt: e[8]?.timestamp ?? null,
      endedAt: e[11]?.timestamp ?? null,
      usage: usage(6, 4_000, 4_200, 100),
    },
  ];
  s.compactions = [
    {
      uuid: 'c1',
      kind: 'full',
      trigger: 'auto',
      form: 'boundary',
      timestamp: e[14]?.timestamp ?? null,
      preTokens: 185_000,
      postTokens: 21_000,
      source: { file: 'demo.jsonl', line: 15, offset: 0, length: 1 },
      complete: true,
      logicalParent: 'a4',
      logicalParentResolution: 'in-file',
      summaryUuid: 'cs',
      sidechain: null,
      epoch: 1,
    },
  ];
  s.epochs = [
    {
      index: 0,
      compaction: null,
      entries: 14,
      startedAt: e[0]?.timestamp ?? null,
      endedAt: e[13]?.timestamp ?? null,
      usage: usage(0),
    },
    {
      index: 1,
      compaction: 'c1',
      entries: 8,
      startedAt: e[14]?.timestamp ?? null,
      endedAt: e[21]?.timestamp ?? null,
      usage: usage(0),
    },
  ];
  s.tools = [
    {
      id: 't1',
      name: 'Read',
      callUuid: 'a1',
      resultUuid: 'r1',
      status: 'ok',
      durationMs: 120,
      batch: 'm1',
      sidechain: null,
    },
    {
      id: 't2',
      name: 'Task',
      callUuid: 'a3',
      resultUuid: 'r2',
      status: 'ok',
      durationMs: 28_000,
      batch: 'm3',
      sidechain: null,
    },
    {
      id: 't3',
      name: 'Bash',
      callUuid: 's2',
      resultUuid: 's3',
      status: 'error',
      durationMs: 4_000,
      batch: 'ms2',
      sidechain: 'agent-x1',
    },
    {
      id: 't4',
      name: 'Read',
      callUuid: 'a5',
      resultUuid: 'r5',
      status: 'ok',
      durationMs: 80,
      batch: 'm5',
      sidechain: null,
    },
    {
      id: 't5',
      name: 'Bash',
      callUuid: 'a6',
      resultUuid: 'r6',
      status: 'error',
      durationMs: 300,
      batch: 'm6',
      sidechain: null,
    },
  ];
  const total = usage(60, 230_000, 70_000, 900);
  s.usage = { total, byModel: { 'claude-sonnet-4-5': total }, byEpoch: {}, bySidechain: {}, main: total };
  s.diagnostics = [
    {
      code: 'orphan',
      severity: 'warning',
      message: 'An entry <b>points</b> to a missing parent',
      file: 'demo.jsonl',
      line: 3,
    },
  ];
  return s;
}

/** The index line of a session, with the session that contains it when there is one. */
export function summaryOf(
  s: Session,
  file: string,
  duplicateOf: string | null = null,
): ArchiveSessionSummary {
  return {
    id: s.id,
    file,
    title: s.title,
    firstPrompt: s.firstPrompt,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    durationMs: s.startedAt && s.endedAt ? Date.parse(s.endedAt) - Date.parse(s.startedAt) : null,
    entries: s.entries.length,
    forks: s.branchPoints.filter((b) => b.kind === 'rewind' || b.kind === 'retry').length,
    abandonedEntries: s.entries.filter((e) => !e.active).length,
    sidechains: s.sidechains.length,
    compactions: s.compactions.length,
    toolCalls: s.tools.length,
    usage: s.usage.total,
    cost: (s.cost ?? sessionCost(s)).total,
    duplicateOf,
    diagnostics: { error: 0, warning: s.diagnostics.length, info: 0 },
    sources: [`${s.id}.jsonl`],
  };
}

/** Writes an archive folder: `projects` maps a project id to its sessions; returns the folder. */
export function writeArchive(
  dir: string,
  projects: { id: string; cwd: string | null; sessions: Session[] }[],
  extra: (index: ArchiveIndex) => void = () => {},
): string {
  mkdirSync(dir, { recursive: true });
  const index: ArchiveIndex = {
    schemaVersion: SCHEMA_VERSION,
    generator: { name: 'cctrail', version: '0.1.0' },
    projects: projects.map((p) => {
      mkdirSync(join(dir, p.id), { recursive: true });
      const duplicates = sessionDuplicates(p.sessions);
      return {
        slug: p.id,
        id: p.id,
        cwd: p.cwd,
        sessions: p.sessions.map((s, i) => {
          const file = `${p.id}/${s.id}.json`;
          writeFileSync(join(dir, file), JSON.stringify(s));
          return summaryOf(s, file, duplicates[i]);
        }),
      };
    }),
    usage: usage(0),
    cost: costTotals(
      projects.flatMap((p) => p.sessions.map((s) => ({ project: p.id, costs: responseCosts(s) }))),
    ),
  };
  extra(index);
  writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
  return dir;
}
