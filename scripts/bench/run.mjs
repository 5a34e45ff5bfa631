// `pnpm bench`: the benchmarks of BENCHMARKS.md. Speed is reported as ratios against a baseline run in the same
// process or on the same machine, never as timed tests. Generated data is cached under .bench/ (gitignored).
//
//   BENCH_BASELINE=DIR[,DIR]  other built checkouts (each with its CLI as published, core and report dist):
//                       every measurement runs for every build back to back, and a table sets each against after
//   BENCH_CLI=dist      measure every build's packages/cli/dist/bin.js (default: its published `bin`, the bundle)
//   BENCH_RUNS=3        runs per measurement (median, min–max)
//   BENCH_ARCHIVE_RUNS=9  runs of benchmark 3 (at least BENCH_RUNS)
//   BENCH_SCALE=1       scales every generated size (0.05 for a quick look; figures in BENCHMARKS.md use 1)
//   BENCH_ONLY=1,2,3,4,6  which benchmarks to run (5, the extremes of #19, and 7, live (#29), only when named)
//   BENCH_ARCHIVES=calibrated,legacy  the archives of benchmarks 3 and 4 (profiles of generate.mjs)
//   BENCH_TITLE=…       the heading of this run's figures in BENCHMARKS.md
//   BENCH_OUT=FILE      where to write (default BENCHMARKS.md; earlier rounds below its history marker are kept)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { archive } from './bench-archive.mjs';
import { throughput } from './bench-core.mjs';
import { extremes } from './bench-extremes.mjs';
import { keep } from './bench-keep.mjs';
import { live } from './bench-live.mjs';
import { memory } from './bench-memory.mjs';
import { report } from './bench-report.mjs';
import { builds } from './builds.mjs';
import { createFigures } from './figures.mjs';
import { mb } from './measure.mjs';

const root = resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ONLY = new Set((process.env.BENCH_ONLY ?? '1,2,3,4,6').split(','));
const HISTORY = '<!-- Earlier rounds: kept by the runner below this line. -->';
const log = (...args) => console.error('bench:', ...args);

const ctx = {
  work: join(root, '.bench'),
  runs: RUNS,
  archiveRuns: Math.max(RUNS, Number(process.env.BENCH_ARCHIVE_RUNS ?? 9)),
  scale: Number(process.env.BENCH_SCALE ?? 1),
  profiles: (process.env.BENCH_ARCHIVES ?? 'calibrated,legacy').split(','),
  figures: createFigures(),
  log,
  builds: [],
};

function machine() {
  const version = (cmd, args) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim().split('\n')[0] : 'n/a';
  };
  const pkg = (name) => {
    try {
      return JSON.parse(
        readFileSync(join(root, 'node_modules/.pnpm/node_modules', name, 'package.json'), 'utf8'),
      ).version;
    } catch {
      return 'n/a';
    }
  };
  return `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} RAM, Node ${process.version}, pnpm ${version('pnpm', ['--version'])}, astro ${pkg('astro')}; load average ${loadavg()[0].toFixed(1)} when the run started.
Runs per measurement: ${ctx.runs}, ${ctx.archiveRuns} for benchmark 3 (median, min–max). Scale: ${ctx.scale}. Date: ${new Date().toISOString().slice(0, 10)}.
Builds: ${ctx.builds.map((b) => `${b.name} = ${b.commit} (${b.root === root ? 'this checkout' : b.root})`).join(', ')}.`;
}

/** What BENCHMARKS.md holds below the history marker (earlier rounds), to keep under this run's figures. */
function history(file) {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(HISTORY);
  return at >= 0 ? text.slice(at) : '';
}

mkdirSync(ctx.work, { recursive: true });
try {
  ctx.builds = builds(root, process.env.BENCH_BASELINE);
} catch (error) {
  console.error(`bench: ${error.message}`);
  process.exit(2);
}
const sections = [];
if (ONLY.has('1')) sections.push(await throughput(ctx));
if (ONLY.has('2')) sections.push(await memory(ctx));
if (ONLY.has('3')) sections.push(await archive(ctx));
if (ONLY.has('4')) sections.push(await report(ctx));
if (ONLY.has('5')) sections.push(await extremes(ctx));
if (ONLY.has('6')) sections.push(await keep(ctx));
if (ONLY.has('7')) sections.push(await live(ctx));
const comparison = ctx.figures.comparison(ctx.builds);
const out = resolve(root, process.env.BENCH_OUT ?? 'BENCHMARKS.md');
const title = process.env.BENCH_TITLE ?? (comparison ? 'Old against new' : 'Figures');
const text = `# Benchmarks

Produced by \`pnpm bench\` (\`scripts/bench/\`): a deterministic generator of transcripts (\`generate.mjs\`, following
FORMAT.md) in two profiles, \`calibrated\` (shaped like a real archive: \`node scripts/bench/profile.mjs DIR\` prints
an archive's shape) and \`legacy\` (the first shape: few, large lines), and this runner. Figures are medians of
several runs on one machine; speed is stated as a ratio to a baseline measured in the same run, and with
\`BENCH_BASELINE=/other/checkout\` every figure of two builds measured back to back.

## ${title}

${machine()}
${comparison ? `\n### Before against after\n\n${comparison}\n` : ''}
${sections.map((s) => s.replace(/^## /, '### ')).join('\n')}
${history(out)}`;
writeFileSync(out, text);
console.log(text);
