// Generated extremes of #19: one session with N retries of one prompt (N children of one parent), one session
// whose sub-agents form a chain N deep (each agent spawns the next), one session with an invalid line of N bytes;
// for #31, a prompt of N bytes on one line, N records glued on one line and a session of N tiny lines.

import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const at = (i) => new Date(Date.UTC(2026, 1, 10, 9) + i * 1000).toISOString();

function line(sessionId, fields) {
  return JSON.stringify({
    sessionId,
    cwd: '/home/dev/extreme',
    version: '2.1.39',
    userType: 'external',
    isSidechain: false,
    ...fields,
  });
}

function user(sessionId, uuid, parentUuid, content, i, more = {}) {
  return line(sessionId, {
    type: 'user',
    uuid,
    parentUuid,
    timestamp: at(i),
    message: { role: 'user', content },
    ...more,
  });
}

function reply(sessionId, uuid, parentUuid, content, i, more = {}) {
  const message = {
    id: `msg_${uuid}`,
    role: 'assistant',
    model: 'claude-opus-4-1',
    content,
    usage: { input_tokens: 3, output_tokens: 2 },
  };
  return line(sessionId, { type: 'assistant', uuid, parentUuid, timestamp: at(i), message, ...more });
}

function write(dir, sessionId, main, agents = {}) {
  const project = join(dir, '-home-dev-extreme');
  mkdirSync(join(project, sessionId, 'subagents'), { recursive: true });
  writeFileSync(join(project, `${sessionId}.jsonl`), `${main.join('\n')}\n`);
  for (const [name, lines] of Object.entries(agents))
    writeFileSync(join(project, sessionId, 'subagents', name), `${lines.join('\n')}\n`);
}

/** `n` retries at one parent. */
export function writeRetries(dir, n) {
  const id = 'e0000000-0000-4000-8000-000000000001';
  const main = [user(id, 'u0', null, 'try this', 0)];
  for (let i = 0; i < n; i++)
    main.push(reply(id, `a${i}`, 'u0', [{ type: 'text', text: `attempt ${i}` }], i + 1));
  write(dir, id, main);
}

/** A chain of sub-agents `n` deep. */
export function writeAgentChain(dir, n) {
  const id = 'e0000000-0000-4000-8000-000000000002';
  const task = (toolId, i) => ({
    type: 'tool_use',
    id: toolId,
    name: 'Task',
    input: { description: `level ${i}`, prompt: `go ${i}`, subagent_type: 'general-purpose' },
  });
  const main = [user(id, 'u0', null, 'delegate', 0), reply(id, 'a0', 'u0', [task('toolu_0', 0)], 1)];
  const agents = {};
  for (let i = 1; i <= n; i++) {
    const agentId = `c${String(i).padStart(6, '0')}`;
    const side = { isSidechain: true, agentId };
    agents[`agent-${agentId}.jsonl`] = [
      user(id, `${agentId}-u`, null, `go ${i - 1}`, 2 * i, side),
      reply(
        id,
        `${agentId}-a`,
        `${agentId}-u`,
        i < n ? [task(`toolu_${i}`, i)] : [{ type: 'text', text: 'done' }],
        2 * i + 1,
        side,
      ),
    ];
  }
  write(dir, id, main, agents);
}

/**
 * Writes a main transcript whose lines are strings or generators of the pieces of one line (a line of hundreds
 * of MB is longer than a string can be).
 */
function writeStreamed(dir, sessionId, lines) {
  const project = join(dir, '-home-dev-extreme');
  mkdirSync(project, { recursive: true });
  const fd = openSync(join(project, `${sessionId}.jsonl`), 'w');
  try {
    for (const line of lines) {
      if (typeof line === 'string') writeSync(fd, line);
      else for (const piece of line) writeSync(fd, piece);
      writeSync(fd, '\n');
    }
  } finally {
    closeSync(fd);
  }
}

/** `unit` repeated to `bytes` bytes, in pieces of about 16 MB. */
function* repeated(unit, bytes) {
  const piece = unit.repeat(Math.max(1, Math.floor(16_000_000 / unit.length)));
  let left = Math.ceil(bytes / unit.length) * unit.length;
  while (left >= piece.length) {
    yield piece;
    left -= piece.length;
  }
  if (left > 0) yield unit.repeat(left / unit.length);
}

/** An invalid line of `bytes` bytes, `}{` all along and shallow nesting. */
export function writeInvalidLine(dir, bytes) {
  const id = 'e0000000-0000-4000-8000-000000000003';
  writeStreamed(dir, id, [
    user(id, 'u1', null, 'before', 1),
    repeated('{"a":1}}{"b":2', bytes),
    user(id, 'u2', 'u1', 'after', 2),
  ]);
}

/** A prompt of `bytes` bytes on one line, between two ordinary prompts. */
export function writeHugePrompt(dir, bytes) {
  const id = 'e0000000-0000-4000-8000-000000000004';
  const [head, tail] = user(id, 'u2', 'u1', '@', 2).split('"@"');
  writeStreamed(dir, id, [
    user(id, 'u1', null, 'before', 1),
    (function* () {
      yield `${head}"`;
      yield* repeated('word ', bytes);
      yield `"${tail}`;
    })(),
    user(id, 'u3', 'u2', 'after', 3),
  ]);
}

/** One session of `n` tiny lines: prompts and replies in one chain. */
export function writeTinyLines(dir, n) {
  const id = 'e0000000-0000-4000-8000-000000000005';
  writeStreamed(
    dir,
    id,
    (function* () {
      for (let i = 0; i < n; i++) {
        const parent = i === 0 ? null : `${i - 1}`;
        yield i % 2 === 0
          ? user(id, `${i}`, parent, `p${i}`, i)
          : reply(id, `${i}`, parent, [{ type: 'text', text: `r${i}` }], i);
      }
    })(),
  );
}

/** `n` records glued on one line (no newline between them), each a prompt answering the one before. */
export function writeGluedRecords(dir, n) {
  const id = 'e0000000-0000-4000-8000-000000000006';
  writeStreamed(dir, id, [
    user(id, 'u1', null, 'before', 1),
    (function* () {
      let piece = '';
      for (let i = 0; i < n; i++) {
        piece += JSON.stringify({
          type: 'user',
          uuid: `g${i}`,
          parentUuid: i === 0 ? 'u1' : `g${i - 1}`,
          sessionId: id,
          message: { role: 'user', content: 'x' },
        });
        if (piece.length > 16_000_000) {
          yield piece;
          piece = '';
        }
      }
      if (piece) yield piece;
    })(),
  ]);
}
