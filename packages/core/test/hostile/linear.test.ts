import { expect, it } from 'vitest';
import { buildSession } from '../../src/index.js';
import { jsonl, memorySource, prompt } from '../helpers.js';

/** The fastest of three builds of a session whose one line is `text`, in ms. */
async function fastest(text: string): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    await buildSession({
      id: 's',
      main: memorySource('s.jsonl', jsonl([prompt('a', null), text])),
      agents: [],
    });
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// Ratios are asserted loosely (4 × the input may take up to 10 ×): quadratic work gives 16 ×.
it.each([
  ['an invalid line full of `}{`', (n: number) => '{"a":1}}{"b":2'.repeat(n / 14)],
  ['a line nested too deep', (n: number) => `{"type":"user","d":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`],
  [
    'a long valid line',
    (n: number) => JSON.stringify({ type: 'user', uuid: 'b', parentUuid: 'a', text: 'x}{'.repeat(n / 3) }),
  ],
])('reads %s in time linear in its length', async (_name, line) => {
  const small = await fastest(line(1 << 18));
  const large = await fastest(line(1 << 20));
  expect(large / Math.max(small, 1)).toBeLessThan(10);
});
