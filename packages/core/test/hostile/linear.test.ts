import { expect, it } from 'vitest';
import { buildSession } from '../../src/index.js';
import { jsonl, memorySource, prompt } from '../helpers.js';

/**
 * The CPU time (user + system, ms) of building a session whose one line is `text`: the work done, which a busy
 * machine does not stretch the way it stretches wall time (a long build is preempted more often than a short one).
 */
async function buildTime(text: string): Promise<number> {
  const started = process.cpuUsage();
  await buildSession({
    id: 's',
    main: memorySource('s.jsonl', jsonl([prompt('a', null), text])),
    agents: [],
  });
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The ratio of the cheapest builds of two lines, run alternately (a ratio, never a time, is asserted). */
async function fastestRatio(small: string, large: string): Promise<number> {
  let bestSmall = Number.POSITIVE_INFINITY;
  let bestLarge = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    bestSmall = Math.min(bestSmall, await buildTime(small));
    bestLarge = Math.min(bestLarge, await buildTime(large));
  }
  return bestLarge / Math.max(bestSmall, 1);
}

// Ratios are asserted loosely (4 × the input may take up to 10 ×): quadratic work gives 16 ×.
it.each([
  ['an invalid line full of `}{`', (n: number) => '{"a":1}}{"b":2'.repeat(n / 14)],
  ['a line nested too deep', (n: number) => `{"type":"user","d":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`],
  [
    'a long valid line',
    (n: number) => JSON.stringify({ type: 'user', uuid: 'b', parentUuid: 'a', text: 'x}{'.repeat(n / 3) }),
  ],
])('reads %s in CPU time linear in its length', async (_name, line) => {
  expect(await fastestRatio(line(1 << 19), line(1 << 21))).toBeLessThan(10);
});
