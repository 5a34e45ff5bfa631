// Benchmark 1: core throughput against the JSON.parse limit, in-process, for every build.

import { createReadStream, statSync } from 'node:fs';
import { inTurn, loadCore } from './builds.mjs';
import { dataset, sessionFiles } from './files.mjs';
import { median, seconds, spread } from './measure.mjs';

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

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

/** Runs benchmark 1 and returns its section. */
export async function throughput(ctx) {
  const { builds, figures, scale, runs } = ctx;
  const dir = await dataset(
    ctx.work,
    `single-256-x${scale}`,
    { profile: 'calibrated', sessions: 1, totalMb: 256 * scale, seed: 11 },
    ctx.log,
  );
  const [file] = sessionFiles(dir);
  const bytes = statSync(file).size;
  const cores = await Promise.all(builds.map((b) => loadCore(b)));
  const times = { baseline: [] };
  const contenders = [['baseline', () => parseOnly(file)]];
  builds.forEach((b, i) => {
    const { buildSession, fileSource } = cores[i];
    const session = (content) =>
      buildSession({ id: 'bench', main: fileSource(file), agents: [] }, { content });
    contenders.push([`${b.name}:full`, () => session(true)], [`${b.name}:lean`, () => session(false)]);
    times[`${b.name}:full`] = [];
    times[`${b.name}:lean`] = [];
  });
  for (let i = 0; i < runs; i++) {
    for (const [key, fn] of inTurn(contenders, i)) {
      globalThis.gc?.();
      const started = performance.now();
      await fn();
      times[key].push(performance.now() - started);
    }
  }
  const rate = (ms) => `${(bytes / 1048576 / (ms / 1000)).toFixed(0)} MiB/s`;
  const ratio = (key) => median(times.baseline) / median(times[key]);
  const rows = [
    `| baseline: split + JSON.parse | ${spread(times.baseline, seconds)} | ${rate(median(times.baseline))} | 1.00 |`,
  ];
  const verdicts = [];
  for (const b of builds) {
    const tag = builds.length > 1 ? ` (${b.name}, ${b.commit})` : '';
    for (const [mode, label] of [
      ['full', '`buildSession` (content kept)'],
      ['lean', '`buildSession({ content: false })`'],
    ]) {
      const key = `${b.name}:${mode}`;
      rows.push(
        `| ${label}${tag} | ${spread(times[key], seconds)} | ${rate(median(times[key]))} | **${ratio(key).toFixed(2)}** |`,
      );
      figures.add(`1. ${label}`, b.name, times[key], seconds);
      verdicts.push(
        `${ratio(key) >= 0.6 ? 'met' : 'missed'} for ${mode === 'full' ? 'content kept' : 'the structure-only pass'}${tag}`,
      );
    }
  }
  return `## 1. Core throughput against the JSON.parse limit

One generated session of ${mib(bytes)} (calibrated profile, ${scale === 1 ? 'the target size' : `scale ${scale}`}), read from disk by each contender in the same process.
The baseline splits lines and \`JSON.parse\`s every line, nothing else. cctrail parses, normalizes, builds the
DAG and runs every analysis (branches, sidechains, compactions, tool pairing, usage).

| contender | time, median (min–max) | throughput | ratio to baseline |
| --- | --- | --- | --- |
${rows.join('\n')}

Target: ratio ≥ 0.6 — ${verdicts.join('; ')}.
`;
}
