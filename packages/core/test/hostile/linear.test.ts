import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { branchEntries, buildSession, childrenOf } from '../../src/index.js';
import { answer, jsonl, memorySource, prompt } from '../helpers.js';

// The collector, reached without a command-line flag: a run that starts on a heap full of the last run's garbage
// pays for collecting it, and a larger heap is collected more often (ratios of 12 to 16 for linear work, against
// 9 to 10 when every run starts from a collected heap).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The CPU time (user + system, ms) of `work`, from a collected heap: the work done, which a busy machine does not
 * stretch the way it stretches wall time (a long run is preempted more often than a short one).
 */
async function cpu(work: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const started = process.cpuUsage();
  await work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The ratio of the cheapest of five runs of `large` to the cheapest of five of `small`, run alternately. */
async function cpuRatio(small: () => Promise<unknown>, large: () => Promise<unknown>): Promise<number> {
  let bestSmall = Number.POSITIVE_INFINITY;
  let bestLarge = Number.POSITIVE_INFINITY;
  // The best of five: a machine busy with other work inflates some runs, never shortens one.
  for (let run = 0; run < 5; run++) {
    bestSmall = Math.min(bestSmall, await cpu(small));
    bestLarge = Math.min(bestLarge, await cpu(large));
  }
  return bestLarge / Math.max(bestSmall, 1);
}

/** Builds a session whose one line after the prompt is `text`. */
const buildLine = (text: string) => async () =>
  buildSession({ id: 's', main: memorySource('s.jsonl', jsonl([prompt('a', null), text])), agents: [] });

// Ratios are asserted loosely (4 × the input may take up to 10 ×): quadratic work gives 16 ×.
it.each([
  ['an invalid line full of `}{`', (n: number) => '{"a":1}}{"b":2'.repeat(n / 14)],
  ['a line nested too deep', (n: number) => `{"type":"user","d":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`],
  [
    'a long valid line',
    (n: number) => JSON.stringify({ type: 'user', uuid: 'b', parentUuid: 'a', text: 'x}{'.repeat(n / 3) }),
  ],
])('reads %s in CPU time linear in its length', async (_name, line) => {
  expect(await cpuRatio(buildLine(line(1 << 19)), buildLine(line(1 << 21)))).toBeLessThan(10);
});

// #31: ten times the input may cost fifteen times the CPU; a quadratic step costs a hundred times.
describe('work linear in forks and in records per line (#31)', () => {
  /** `n` retries at one parent: `n` forks, `n - 1` of them abandoned branches. */
  const retries = (n: number) =>
    jsonl([
      prompt('u', null),
      ...Array.from({ length: n }, (_, i) => answer(`a${i}`, 'u', `attempt ${i}`, `msg_a${i}`)),
    ]);
  /** Builds the session and lists the entries of each of its branches, as the report's pages do. */
  const branchWalk = (text: string) => async () => {
    const session = await buildSession({ id: 's', main: memorySource('s.jsonl', text), agents: [] });
    const children = childrenOf(session.entries);
    let entries = 0;
    for (const b of session.branches) entries += branchEntries(session, b, children).length;
    expect(entries).toBe(session.branches.length);
  };

  it('builds a session of 20,000 forks and lists its branches in at most 15 × the CPU of 2,000', async () => {
    expect(await cpuRatio(branchWalk(retries(2_000)), branchWalk(retries(20_000)))).toBeLessThan(15);
  }, 120_000);

  /** `n` prompts glued on one line, each answering the one before. */
  const glued = (n: number) =>
    jsonl([
      prompt('u', null),
      Array.from({ length: n }, (_, i) => JSON.stringify(prompt(`g${i}`, i === 0 ? 'u' : `g${i - 1}`))).join(
        '',
      ),
    ]);
  const build = (text: string) => async () => {
    const session = await buildSession({ id: 's', main: memorySource('s.jsonl', text), agents: [] });
    expect(session.entries.length).toBeGreaterThan(1);
  };

  it('reads 100,000 records glued on one line in at most 15 × the CPU of 10,000', async () => {
    expect(await cpuRatio(build(glued(10_000)), build(glued(100_000)))).toBeLessThan(15);
  }, 120_000);
});
