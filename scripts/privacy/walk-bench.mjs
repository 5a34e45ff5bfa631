// Where redaction's CPU goes (#26 item 1): the engine (`redactText` over every string and key) against the walk
// over a session's values that calls it (`privacyTransform`), for this checkout's build and a reference build
// (main, built at /work/base-main by default), loaded in one process and run alternately; CPU time of this thread
// (`process.cpuUsage`: every pass is synchronous), medians over the rounds. The values are the JSON lines of the
// transcripts under a folder, read up to a size: each line stands for an entry, as the serializer hands entries
// to the transform one by one.
//
//   node --expose-gc scripts/privacy/walk-bench.mjs [--dir .bench/archive-550-calibrated-x1] [--mb 60]
//     [--ref /work/base-main] [--runs 5]

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringsOf } from '../bench/json-strings.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: options } = parseArgs({
  options: {
    dir: { type: 'string', default: join(root, '.bench/archive-550-calibrated-x1') },
    mb: { type: 'string', default: '60' },
    ref: { type: 'string', default: '/work/base-main' },
    runs: { type: 'string', default: '5' },
  },
});

/** The parsed JSON lines of the transcripts under a folder, in name order, up to `limit` bytes. */
function linesUnder(dir, limit) {
  const out = [];
  let bytes = 0;
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  for (const name of files) {
    if (bytes >= limit) break;
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, 'utf8');
    bytes += Buffer.byteLength(text);
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        out.push(line);
      }
    }
  }
  return { values: out, bytes };
}

/** A build's privacy modules. */
async function load(checkout) {
  const dist = join(checkout, 'packages/cli/dist/privacy');
  const transform = await import(pathToFileURL(join(dist, 'transform.js')).href);
  const redact = await import(pathToFileURL(join(dist, 'redact.js')).href);
  const walk = await import(pathToFileURL(join(dist, 'rewrite-strings.js')).href);
  return { transform, redact, walk };
}

/** CPU milliseconds of this thread spent in `work`. */
function cpu(work) {
  globalThis.gc?.();
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const { values, bytes } = linesUnder(resolve(options.dir), Number(options.mb) * 1e6);
const strings = stringsOf(values);
const chars = strings.reduce((sum, s) => sum + s.length, 0);
const builds = { main: await load(resolve(options.ref)), this: await load(root) };
const privacy = { redact: true, shortHome: false };
console.log(
  `${values.length} lines, ${(bytes / 1e6).toFixed(1)} MB of JSON, ${strings.length} strings and keys, ${(chars / 1e6).toFixed(1)} M characters; ${options.runs} rounds`,
);

const passes = {
  // The engine alone: each string once, as both walks give it.
  'engine (redactText)': (build) => () => {
    for (const text of strings) build.redact.redactText(text);
  },
  // The whole transform, one line (entry) at a time; main rewrites its argument, so it gets a copy (made
  // before the clock starts, below).
  'privacyTransform (engine + walk)': (build) => (copies) => {
    const transform = build.transform.privacyTransform(privacy);
    for (const value of copies) transform(value);
  },
  // The walk alone, every string and key visited and kept: main's in-place walk, or this build's mapping one.
  'walk alone (strings kept)': (build) => (copies) => {
    if (build.walk.mapStrings) {
      const same = (text) => text;
      for (const value of copies) build.walk.mapStrings(value, { value: same, key: same });
    } else {
      const none = (text) => ({ text, count: 0 });
      for (const value of copies) build.walk.rewriteStrings(value, none, { keys: true });
    }
  },
};

const times = {};
for (let round = 0; round < Number(options.runs); round++) {
  const order = round % 2 === 0 ? ['main', 'this'] : ['this', 'main'];
  for (const [pass, make] of Object.entries(passes))
    for (const name of order) {
      const copies = pass.startsWith('engine') ? null : structuredClone(values);
      const work = make(builds[name]);
      const ms = cpu(() => work(copies));
      times[pass] ??= {};
      times[pass][name] ??= [];
      times[pass][name].push(ms);
    }
}

const row = (cells) => `| ${cells.join(' | ')} |`;
console.log(row(['pass (median CPU ms)', 'main', 'this', 'this / main']));
console.log(row(['---', '---', '---', '---']));
const med = {};
for (const [pass, byBuild] of Object.entries(times)) {
  med[pass] = { main: median(byBuild.main), this: median(byBuild.this) };
  const { main, this: mine } = med[pass];
  console.log(row([pass, main.toFixed(0), mine.toFixed(0), (mine / main).toFixed(2)]));
}
const engine = med['engine (redactText)'];
const whole = med['privacyTransform (engine + walk)'];
for (const name of ['main', 'this'])
  console.log(
    `${name}: walk (transform − engine) ${(whole[name] - engine[name]).toFixed(0)} ms, ${((100 * (whole[name] - engine[name])) / whole[name]).toFixed(0)} % of the transform; engine ${((chars / 1e6 / engine[name]) * 1000).toFixed(0)} M chars/s`,
  );
