import type { Entry, Session } from '../../src/views/model.js';
import {
  claude,
  emptySession,
  entry,
  HOSTILE_LABEL,
  resetClock,
  result,
  text,
  usage,
} from './session-parts.js';

/**
 * The feature-complete demo session: a rewind, a sub-agent, a compaction with a re-read, tool errors, an image
 * and hostile content (`demo.ts` re-exports it).
 */

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The feature-complete demo session. */
export function demoSession(): Session {
  resetClock();
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
