// Benchmark 5 (#19, #31): `stats --json`, `export` and `report` on generated extremes. The cases that grow with
// their size run at two sizes, so that the ratio of times says whether the work grows linearly (n × the input
// should take about n × the time); the single huge inputs of #31 run once each, for their outcome (exit 0 or 1,
// with a diagnostic, never an abort) and their peak memory (under 1.5 GiB). Opt-in: BENCH_ONLY=5 (the #31
// inputs are 300–600 MB files: BENCH_EXTREME_CASES=<names, comma-separated> picks cases). Runs that pass
// BENCH_EXTREME_TIMEOUT (default 600 s) are stopped and reported as such. BENCH_EXTREME_COMMANDS=<stats,export,
// report> picks commands; BENCH_EXTREME_KEEP=1 keeps each case's folder (its site) in the bench's work folder.

import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  writeAgentChain,
  writeGluedRecords,
  writeHugePrompt,
  writeInvalidLine,
  writeRetries,
  writeTinyLines,
} from './extremes.mjs';
import { mb, seconds } from './measure.mjs';

const MB = 1_000_000;
const CASES = [
  { name: 'retries at one parent', sizes: [10_000, 100_000], write: writeRetries, unit: 'forks' },
  { name: 'agent chain', sizes: [2_000, 20_000], write: writeAgentChain, unit: 'agents deep' },
  { name: 'invalid line', sizes: [262_144, 1_048_576], write: writeInvalidLine, unit: 'bytes' },
  {
    name: 'huge line',
    sizes: [300 * MB, 500 * MB, 600 * MB],
    write: writeInvalidLine,
    unit: 'bytes',
    once: true,
  },
  { name: 'huge prompt', sizes: [100 * MB, 300 * MB], write: writeHugePrompt, unit: 'bytes', once: true },
  {
    name: 'glued records',
    sizes: [6_400_000],
    write: writeGluedRecords,
    unit: 'records on one line',
    once: true,
  },
  { name: 'tiny lines', sizes: [1_000_000], write: writeTinyLines, unit: 'lines', once: true },
];

/**
 * What a run said of its input: its `diagnostics:` line, else its last line on stderr (an abort, an internal
 * error), cut to 100 characters.
 */
function saidOf(stderr) {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const said = lines.find((l) => l.startsWith('diagnostics:')) ?? lines.at(-1) ?? '';
  return said.length > 100 ? `${said.slice(0, 99)}…` : said;
}

/** A module preloaded into the CLI's process: at exit, it writes the process's CPU time (ms) to a file. */
const CPU_PRELOAD = `process.on('exit', () => {
  const used = process.cpuUsage();
  require('node:fs').writeFileSync(process.env.CCTRAIL_BENCH_CPU_FILE, String((used.user + used.system) / 1000));
});\n`;

/** The CPU time a run wrote (its threads included), or NaN when it wrote none (killed). */
function cpuOf(file) {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/**
 * Runs the CLI with a time limit: wall time, CPU time (user and system, its threads included), peak RSS (VmHWM,
 * polled), outcome and what it said.
 */
function measure(cli, args, env, limit, work) {
  return new Promise((resolve) => {
    const preload = join(work, 'cpu-at-exit.cjs');
    const cpuFile = join(work, 'cpu-ms');
    writeFileSync(preload, CPU_PRELOAD);
    rmSync(cpuFile, { force: true });
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env, NODE_OPTIONS: `--require ${preload}`, CCTRAIL_BENCH_CPU_FILE: cpuFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // The end of stderr only: a run that lists every diagnostic can print a line per input line.
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      stderr = (stderr + text).slice(-65_536);
    });
    let peakRss = 0;
    let timedOut = false;
    const poll = setInterval(() => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        if (kb) peakRss = Math.max(peakRss, Number(kb) * 1024);
      } catch {
        // the process has ended
      }
    }, 20);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      const outcome = timedOut ? 'timed out' : code === 0 ? 'ok' : `exit ${code}`;
      resolve({
        ms: performance.now() - started,
        cpu: cpuOf(cpuFile),
        peakRss,
        outcome,
        said: saidOf(stderr),
      });
    });
  });
}

export async function extremes(ctx) {
  const limit = Number(process.env.BENCH_EXTREME_TIMEOUT ?? 600) * 1000;
  const picked = process.env.BENCH_EXTREME_CASES?.split(',');
  const commands = process.env.BENCH_EXTREME_COMMANDS?.split(',');
  const rows = [];
  for (const build of ctx.builds) {
    for (const c of CASES.filter((c) => !picked || picked.includes(c.name))) {
      const times = {};
      const cpus = {};
      for (const size of c.sizes.map((s) => Math.max(1, Math.round(s * ctx.scale)))) {
        const dir = join(ctx.work, `extreme-${build.name}-${c.name.replaceAll(' ', '-')}-${size}`);
        rmSync(dir, { recursive: true, force: true });
        c.write(join(dir, 'projects'), size);
        const env = { CCTRAIL_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' };
        for (const [command, args] of [
          ['stats', ['stats', join(dir, 'projects'), '--json', '--no-cache']],
          ['export', ['export', join(dir, 'projects'), '-o', join(dir, 'archive')]],
          ['report', ['report', join(dir, 'projects'), '-o', join(dir, 'site')]],
        ].filter(([command]) => !commands || commands.includes(command))) {
          ctx.log(`5: ${build.name} ${command} ${c.name} ${size}`);
          const r = await measure(build.cli, args, env, limit, dir);
          times[command] = [...(times[command] ?? []), r.ms];
          cpus[command] = [...(cpus[command] ?? []), r.cpu];
          rows.push(
            `| ${build.name} | ${c.name} | ${size.toLocaleString('en-US')} ${c.unit} | \`${command}\` | ${r.outcome === 'ok' ? seconds(r.ms) : `${r.outcome} after ${seconds(r.ms)}`} | ${Number.isNaN(r.cpu) ? '—' : seconds(r.cpu)} | ${mb(r.peakRss)} | ${r.said.replaceAll('|', '\\|')} |`,
          );
        }
        if (process.env.BENCH_EXTREME_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
      }
      if (c.once) continue;
      const factor = `${c.sizes[1] / c.sizes[0]}× / 1×`;
      for (const [command, [small, large]] of Object.entries(times)) {
        const [cpuSmall, cpuLarge] = cpus[command] ?? [];
        rows.push(
          `| ${build.name} | ${c.name} | ratio ${factor} | \`${command}\` | ${(large / small).toFixed(1)} | ${(cpuLarge / cpuSmall).toFixed(1)} | | |`,
        );
      }
    }
  }
  return `## 5. Extremes (#19)

One generated session per case. The cases that grow run at two sizes (the larger 4 or 10 × the smaller); linear
work gives a ratio near that factor (less when the start-up of the process dominates). The huge inputs of #31 run
once each: exit 0, or 1 with diagnostics, under 1.5 GiB. Time limit per run: ${limit / 1000} s. CPU is the
process's user and system time, its threads included (what a busy machine does not stretch; #31: 10 × the input
at most 15 × the CPU). "Said" is the run's \`diagnostics:\` line on stderr, else its last line there.

| build | case | size | command | time | CPU | peak RSS | said |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
