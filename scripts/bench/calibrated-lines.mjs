// The line writer of a calibrated session (see calibrated-session.mjs): one Claude Code 2.1.39 session's lines,
// each built as Claude Code writes it (FORMAT.md), streamed to its file, bytes counted. Every draw comes from the
// session's own generator, in a fixed order, so the same seed always gives the same bytes.

import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uuidFrom } from './random.mjs';

const FLUSH = 1 << 20;

/**
 * Opens the writer of one session file: `entry` writes a DAG line hanging from the current parent (and makes it
 * the parent), `meta` a line without uuid, `text(n)` gives `n` characters of text, `lognormal` and `chance` draw.
 */
export function sessionWriter(projectDir, sessionId, random, pool, project) {
  const out = createWriteStream(join(projectDir, `${sessionId}.jsonl`), { highWaterMark: FLUSH });
  let buffered = [];
  let bufferedBytes = 0;
  const state = { written: 0, lines: 0, parent: null, clock: 0 };
  state.clock = Date.parse('2026-01-05T09:00:00Z') + Math.floor(random() * 86400000 * 40);
  const env = {
    isSidechain: false,
    userType: 'external',
    cwd: `/home/dev/projects/${project}`,
    sessionId,
    version: '2.1.39',
    gitBranch: random() < 0.5 ? 'main' : `feature/${project}-${Math.floor(random() * 90 + 10)}`,
    slug: `${pick(random, ADJECTIVES)}-${pick(random, ADJECTIVES)}-${pick(random, NOUNS)}`,
  };
  const time = (ms = 800) => {
    state.clock += Math.floor(ms * (0.5 + random()));
    return new Date(state.clock).toISOString();
  };
  const text = (n) => {
    const size = Math.max(1, Math.min(Math.floor(n), pool.length - 2));
    const at = Math.floor(random() * (pool.length - size - 1));
    const s = pool.slice(at, at + size);
    return s.endsWith('\\') ? `${s.slice(0, -1)}x` : s;
  };
  const line = async (record) => {
    const json = `${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(json);
    state.written += bytes;
    state.lines += 1;
    buffered.push(json);
    bufferedBytes += bytes;
    if (bufferedBytes >= FLUSH) await flush();
  };
  const flush = async () => {
    if (!buffered.length) return;
    const chunk = buffered.join('');
    buffered = [];
    bufferedBytes = 0;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const id = (prefix, length = 24) => `${prefix}${uuidFrom(random).replaceAll('-', '').slice(0, length)}`;
  return {
    state,
    env,
    time,
    text,
    id,
    random,
    uuid: () => uuidFrom(random),
    chance: (p) => random() < p,
    pick: (items) => pick(random, items),
    /** A log-normal draw: `median` and the spread `sigma` of its logarithm, capped at `max`. */
    lognormal: (median, sigma, max = Number.POSITIVE_INFINITY) => {
      const u = Math.max(random(), 1e-12);
      const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
      return Math.min(max, median * Math.exp(sigma * normal));
    },
    /**
     * A DAG line: `parentUuid` defaults to the current parent; the line becomes the parent unless `keep`.
     * @returns its uuid.
     */
    async entry(fields, { parent = state.parent, ms = 800, keep = false, uuid = uuidFrom(random) } = {}) {
      const { type, ...rest } = fields;
      await line({ parentUuid: parent, ...env, type, ...rest, uuid, timestamp: time(ms) });
      if (!keep) state.parent = uuid;
      return uuid;
    },
    /** A metadata line (no uuid, not in the DAG). */
    meta: (record) => line(record),
    /** Writes a sub-agent transcript beside the session; returns its bytes. */
    agentFile(agentId, lines) {
      const dir = join(projectDir, sessionId, 'subagents');
      mkdirSync(dir, { recursive: true });
      const body = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
      writeFileSync(join(dir, `agent-${agentId}.jsonl`), body);
      const bytes = Buffer.byteLength(body);
      state.written += bytes;
      return bytes;
    },
    async close() {
      await flush();
      out.end();
      await once(out, 'finish');
    },
  };
}

function pick(random, items) {
  return items[Math.floor(random() * items.length)];
}

const ADJECTIVES = [
  'radiant',
  'floating',
  'humble',
  'seeking',
  'zippy',
  'wondering',
  'dazzling',
  'quiet',
  'brisk',
];
const NOUNS = ['music', 'umbrella', 'wadler', 'barto', 'lamport', 'hopper', 'turing', 'knuth', 'liskov'];
