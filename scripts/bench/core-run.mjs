// One contender of benchmark 1 in a process of its own: two builds of core loaded into one process share V8's
// type feedback for the same object shapes, which slows whichever runs against the other's feedback.
//
//   node --expose-gc scripts/bench/core-run.mjs baseline|full|lean FILE [BUILD_ROOT]
//
// Prints the milliseconds the measured call took (loading the code is not timed).

import { createReadStream } from 'node:fs';
import { loadCore } from './builds.mjs';

/** Splits lines and JSON.parses every line, nothing else: the limit. */
async function parseOnly(file) {
  let pending = '';
  let n = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20, encoding: 'utf8' })) {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (!line) continue;
      JSON.parse(line);
      n++;
    }
  }
  if (pending) JSON.parse(pending);
  return n;
}

const [mode, file, root] = process.argv.slice(2);
let run = () => parseOnly(file);
if (mode !== 'baseline') {
  const { buildSession, fileSource } = await loadCore({ root });
  run = () => buildSession({ id: 'bench', main: fileSource(file), agents: [] }, { content: mode === 'full' });
}
globalThis.gc?.();
const started = performance.now();
await run();
console.log(String(performance.now() - started));
