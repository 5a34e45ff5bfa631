import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { buildSession, type SessionSource } from '../../src/index.js';
import { memorySource } from '../helpers.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** `n` tiny prompts and answers in one chain, as Claude Code writes them (uuids, session, cwd, version, model). */
function tinyLines(n: number): string {
  const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const common = {
      parentUuid: i === 0 ? null : uuid(i - 1),
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/projects/memory',
      sessionId: 'e0000000-0000-4000-8000-000000000005',
      version: '2.1.39',
      gitBranch: 'main',
      uuid: uuid(i),
      timestamp: new Date(Date.UTC(2026, 1, 10, 9) + i * 1000).toISOString(),
    };
    const message =
      i % 2 === 0
        ? { role: 'user', content: `p${i}` }
        : {
            id: `msg_${i}`,
            role: 'assistant',
            model: 'claude-opus-4-1-20250805',
            content: [{ type: 'text', text: `r${i}` }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 3, output_tokens: 2 },
          };
    lines.push(JSON.stringify({ ...common, type: message.role, message }));
  }
  return `${lines.join('\n')}\n`;
}

/** Builds the session, and answers the heap in use, after a full collection, while the session is still alive. */
async function heapWhileAlive(source: SessionSource, content: boolean, n: number): Promise<number> {
  const session = await buildSession(source, { content });
  expect(session.entries.length).toBe(n);
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * Bytes of heap a built session holds per entry: the heap while it is alive minus the heap once it is gone, each
 * after a full collection. A baseline taken before the build would count whatever the build happens to release
 * (the generated text, kept alive by the engine until some later call) and whatever it loads for good.
 */
async function bytesPerEntry(content: boolean): Promise<number> {
  const n = 40_000;
  const source = { id: 's', main: memorySource('s.jsonl', tinyLines(n)), agents: [] };
  const alive = await heapWhileAlive(source, content, n);
  collectGarbage();
  return (alive - process.memoryUsage().heapUsed) / n;
}

// #31: a session of a million tiny lines must build within 1.5 GiB. The values repeated on every line (session,
// folder, version, branch, model, parent uuids) are held once, not once per entry. Measured here: about 715 bytes per
// entry of a structure-only build and 865 of a full one. The limits sit below the 849 and 925 measured before those
// values were shared.
it('holds at most 790 bytes per entry of a structure-only build of tiny lines', async () => {
  expect(await bytesPerEntry(false)).toBeLessThan(790);
}, 120_000);

it('holds at most 920 bytes per entry of a full build of tiny lines', async () => {
  expect(await bytesPerEntry(true)).toBeLessThan(920);
}, 120_000);
