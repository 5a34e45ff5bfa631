// Benchmark 1: core throughput against the JSON.parse limit, in-process, for every build.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inTurn } from './builds.mjs';
import { dataset, sessionFiles } from './files.mjs';
import { median, seconds, spread } from './measure.mjs';

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const runner = fileURLToPath(new URL('./core-run.mjs', import.meta.url));

/** Runs one contender in a process of its own (see core-run.mjs) and returns the milliseconds it took. */
function timed(mode, file, root) {
  const args = ['--expose-gc', runner, mode, file, ...(root ? [root] : [])];
  return Number(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim());
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
  const times = { baseline: [] };
  const contenders = [['baseline', () => timed('baseline', file)]];
  for (const b of builds) {
    for (const mode of ['full', 'lean']) {
      contenders.push([`${b.name}:${mode}`, () => timed(mode, file, b.root)]);
      times[`${b.name}:${mode}`] = [];
    }
  }
  for (let i = 0; i < runs; i++) for (const [key, fn] of inTurn(contenders, i)) times[key].push(fn());
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

One generated session of ${mib(bytes)} (calibrated profile, ${scale === 1 ? 'the target size' : `scale ${scale}`}), read from disk by each contender in a process of its own (timed from the call, not the start).
The baseline splits lines and \`JSON.parse\`s every line, nothing else. cctrail parses, normalizes, builds the
DAG and runs every analysis (branches, sidechains, compactions, tool pairing, usage).

| contender | time, median (min–max) | throughput | ratio to baseline |
| --- | --- | --- | --- |
${rows.join('\n')}

Target: ratio ≥ 0.6 — ${verdicts.join('; ')}.
`;
}
