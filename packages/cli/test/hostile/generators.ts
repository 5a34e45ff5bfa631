/**
 * Hostile transcripts, one small generator per case of #19. Each returns the lines of one session file (and,
 * for agent chains, its agent files); `n` scales the case.
 */

export interface HostileSession {
  main: string[];
  /** Agent files under `<session>/subagents/`, by file name. */
  agents?: Record<string, string[]>;
}

const SID = '0d0d0d0d-0000-4000-8000-000000000000';
const at = (i: number) => new Date(Date.UTC(2026, 1, 10, 9) + i * 1000).toISOString();
const base = (sessionId: string) => ({
  sessionId,
  cwd: '/home/dev/hostile',
  version: '2.1.39',
  userType: 'external',
});
const user = (
  sessionId: string,
  uuid: string,
  parentUuid: string | null,
  content: unknown,
  i: number,
  more = {},
) =>
  JSON.stringify({
    ...base(sessionId),
    type: 'user',
    uuid,
    parentUuid,
    isSidechain: false,
    timestamp: at(i),
    message: { role: 'user', content },
    ...more,
  });
const reply = (
  sessionId: string,
  uuid: string,
  parentUuid: string,
  content: unknown[],
  i: number,
  usage: object = { input_tokens: 3, output_tokens: 2 },
  more = {},
) =>
  JSON.stringify({
    ...base(sessionId),
    type: 'assistant',
    uuid,
    parentUuid,
    isSidechain: false,
    timestamp: at(i),
    message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-opus-4-1', content, usage },
    ...more,
  });

/** A valid record whose extra field nests `n` arrays deep. */
function deepLine(n: number, sessionId = SID): HostileSession {
  const deep = `${'['.repeat(n)}${']'.repeat(n)}`;
  return {
    main: [
      user(sessionId, 'u1', null, 'hello', 1),
      `${user(sessionId, 'u2', 'u1', 'deep', 2).slice(0, -1)},"deep":${deep}}`,
      reply(sessionId, 'a1', 'u1', [{ type: 'text', text: 'ok' }], 3),
    ],
  };
}

/** Token counts out of range: 1e308, negative, fractional, above 2^53, strings; `n` replies. */
function hugeNumbers(n: number, sessionId = SID): HostileSession {
  const values = [1e308, -1, 1.5, 2 ** 60, '12', null, Number.MAX_SAFE_INTEGER];
  const main = [user(sessionId, 'u0', null, 'count', 0)];
  let parent = 'u0';
  for (let i = 0; i < n; i++) {
    const v = values[i % values.length];
    main.push(
      reply(sessionId, `a${i}`, parent, [{ type: 'text', text: `${i}` }], i + 1, {
        input_tokens: v,
        output_tokens: v,
        cache_read_input_tokens: v,
        cache_creation: { ephemeral_1h_input_tokens: v },
      }),
    );
    parent = `a${i}`;
  }
  return { main };
}

/** Timestamps that name no instant, and a spawnDepth that is not a positive integer. */
function badTimes(n: number, sessionId = SID): HostileSession {
  const times = ['not-a-date', '2026-13-45T99:99:99Z', '', '9999999-01-01T00:00:00Z', 'NaN'];
  const main = [user(sessionId, 'u0', null, 'start', 0)];
  for (let i = 0; i < n; i++) {
    const line = JSON.parse(user(sessionId, `u${i + 1}`, `u${i}`, `step ${i}`, i + 1));
    line.timestamp = times[i % times.length];
    main.push(JSON.stringify(line));
  }
  return { main };
}

/** One line that does not parse, `bytes` long, full of `}{` (glued records that never split cleanly). */
function invalidLine(bytes: number, sessionId = SID): HostileSession {
  // Nesting stays shallow (so the line is invalid JSON, not too deep) and `}{` recurs all along.
  const unit = '{"a":1}}{"b":2';
  return {
    main: [
      user(sessionId, 'u1', null, 'before', 1),
      unit.repeat(Math.ceil(bytes / unit.length)),
      user(sessionId, 'u2', 'u1', 'after', 2),
    ],
  };
}

/** `n` retries of one prompt: `n` children of one parent (forks). */
function retries(n: number, sessionId = SID): HostileSession {
  const main = [user(sessionId, 'u0', null, 'try this', 0)];
  for (let i = 0; i < n; i++)
    main.push(reply(sessionId, `a${i}`, 'u0', [{ type: 'text', text: `attempt ${i}` }], i + 1));
  return { main };
}

/** A chain of sub-agents `n` deep: each agent spawns the next with a Task call. */
function agentChain(n: number, sessionId = SID): HostileSession {
  const task = (id: string, i: number) => ({
    type: 'tool_use',
    id,
    name: 'Task',
    input: { description: `level ${i}`, prompt: `go ${i}`, subagent_type: 'general-purpose' },
  });
  const main = [
    user(sessionId, 'u0', null, 'delegate', 0),
    reply(sessionId, 'a0', 'u0', [task('toolu_0', 0)], 1),
  ];
  const agents: Record<string, string[]> = {};
  for (let i = 1; i <= n; i++) {
    const agentId = `c${String(i).padStart(6, '0')}`;
    const side = (s: string) =>
      s
        .replace('"isSidechain":false', '"isSidechain":true')
        .replace('"sessionId"', `"agentId":"${agentId}","sessionId"`);
    agents[`agent-${agentId}.jsonl`] = [
      side(user(sessionId, `${agentId}-u`, null, `go ${i - 1}`, i * 2)),
      side(
        reply(
          sessionId,
          `${agentId}-a`,
          `${agentId}-u`,
          i < n ? [task(`toolu_${i}`, i)] : [{ type: 'text', text: 'done' }],
          i * 2 + 1,
        ),
      ),
    ];
  }
  return { main, agents };
}

/** Markup, bidi controls, scheme-less links and device names in every text field. */
function hostileText(n: number, sessionId = SID): HostileSession {
  const texts = [
    '<script>alert(1)</script><img src=x onerror=alert(1)>',
    '[click](//evil.example/x) and [b](javascript:alert(1))',
    'if (admin) {\u202E } \u2066// check\u2069 {',
    '\u001b[31mred\u001b[0m ]]> <!-- --> </textarea></pre>',
  ];
  const main = [user(sessionId, 'u0', null, texts[0], 0)];
  let parent = 'u0';
  for (let i = 0; i < n; i++) {
    main.push(
      reply(
        sessionId,
        `a${i}`,
        parent,
        [
          { type: 'text', text: texts[i % texts.length] },
          {
            type: 'tool_use',
            id: `toolu_${i}`,
            name: texts[(i + 1) % texts.length],
            input: { [texts[(i + 2) % texts.length]!]: texts[i % texts.length] },
          },
        ],
        i + 1,
        { input_tokens: 1, output_tokens: 1 },
        { agentId: 'con' },
      ),
    );
    parent = `a${i}`;
  }
  return { main };
}

/** Every case at a size small enough for CI, by project name. */
export const HOSTILE_CASES: Record<string, (sessionId: string) => HostileSession> = {
  deep: (id) => deepLine(50_000, id),
  numbers: (id) => hugeNumbers(20, id),
  times: (id) => badTimes(10, id),
  'invalid-line': (id) => invalidLine(1 << 20, id),
  retries: (id) => retries(300, id),
  'agent-chain': (id) => agentChain(50, id),
  text: (id) => hostileText(8, id),
};

/** The cases whose cost grows with their size, by project name: `n` forks, an agent chain `n` deep. */
export const HOSTILE_SIZED = {
  retries: (n: number, id: string) => retries(n, id),
  'agent-chain': (n: number, id: string) => agentChain(n, id),
} as const;
