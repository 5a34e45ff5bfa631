import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { emptyUsage, groupResponses } from '../../src/graph/usage.js';
import type { Entry } from '../../src/model/entry.js';
import type { ApiResponse } from '../../src/model/session.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** `n` answers of one line each, with their usage as read (one response each). */
function answers(n: number): Entry[] {
  const entries: Entry[] = [];
  for (let i = 0; i < n; i++)
    entries.push({
      uuid: `a${i}`,
      kind: 'assistant',
      message: { id: `msg_${i}`, requestId: null, model: 'm', stopReason: null },
      usage: { ...emptyUsage(), inputTokens: 3, outputTokens: 2, responses: 1 },
      timestamp: null,
      sidechain: null,
      epoch: 0,
    } as Entry);
  return entries;
}

function heap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

// #31: a response of one line counts the usage of that line: it holds the entry's own usage object instead of a
// copy (80 bytes per answer of a million-line session). Measured: about 155 bytes per response, 233 with copies.
it('holds at most 180 bytes per response of one line', () => {
  const n = 40_000;
  const entries = answers(n);
  let responses: ApiResponse[] | null = groupResponses(entries);
  expect(responses.length).toBe(n);
  expect(responses[7]!.usage).toEqual(entries[7]!.usage);
  const alive = heap();
  responses = null;
  const per = (alive - heap()) / n;
  expect(per).toBeLessThan(180);
});

it('never changes an entry usage when later lines of its response come', () => {
  const [first, second] = answers(2) as [Entry, Entry];
  second.message = first.message;
  second.usage = { ...second.usage!, outputTokens: 40 };
  const [response] = groupResponses([first, second]);
  expect(response!.usage.outputTokens).toBe(40);
  expect(first.usage!.outputTokens).toBe(2);
});
