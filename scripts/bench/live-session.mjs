// The session the live benchmark (#29) appends to: found in a generated archive, its last entry read back, the
// entry pairs appended to it, and what is read of the processes measured.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

/** The biggest transcript under a folder. */
export function biggest(dir) {
  let best = { path: '', size: -1 };
  const stack = [dir];
  while (stack.length) {
    const at = stack.pop();
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const p = join(at, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.jsonl') && !p.includes('/subagents/')) {
        const size = statSync(p).size;
        if (size > best.size) best = { path: p, size };
      }
    }
  }
  return best;
}

/** The uuid and session id of a transcript's last entry (read from its tail). */
export function lastEntry(path) {
  const size = statSync(path).size;
  const tail = readFileSync(path)
    .subarray(Math.max(0, size - 4_000_000))
    .toString('utf8')
    .split('\n')
    .reverse();
  for (const line of tail) {
    try {
      const record = JSON.parse(line);
      if (typeof record.uuid === 'string' && typeof record.sessionId === 'string') return record;
    } catch {}
  }
  throw new Error(`no entry in ${path}`);
}

/** Two entries chained to `parent`: a prompt and an answer holding `marker`. */
export function appendLines(parent, marker, i) {
  const at = new Date(Date.parse(parent.timestamp ?? '2026-01-01T00:00:00Z') + 1000).toISOString();
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: parent.cwd,
    sessionId: parent.sessionId,
    version: parent.version,
  };
  const user = {
    ...base,
    parentUuid: parent.uuid,
    uuid: `live-u-${i}-${Date.now()}`,
    timestamp: at,
    type: 'user',
    message: { role: 'user', content: `Next step ${i}` },
  };
  const answer = {
    ...base,
    parentUuid: user.uuid,
    uuid: `live-a-${i}-${Date.now()}`,
    timestamp: at,
    type: 'assistant',
    requestId: `req_live_${i}`,
    message: {
      id: `msg_live_${i}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [{ type: 'text', text: `Done: ${marker}` }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    },
  };
  return { text: `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`, last: answer };
}

/** The body of a GET request. */
export function get(url) {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

/** CPU time (user + system, ms) and resident memory (bytes) of a process, from /proc. */
export function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  return { cpuMs: ticks * 10, rss };
}
