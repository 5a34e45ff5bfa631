// Benchmark of `cctrail serve` (#29): the latency from a line appended to the biggest session of an archive to
// the updated page being served, over N appends, with the server's CPU time per append and its memory.
// Benchmark 7 of `pnpm bench`, opt-in (BENCH_ONLY=7: one run takes many minutes at full size; BENCH_SCALE scales
// the archive and the big session), or standalone at full size:
//
//   node scripts/bench/bench-live.mjs
//   BENCH_LIVE_SESSIONS=550 BENCH_LIVE_MB=680   the generated archive (calibrated profile), cached under .bench/
//   BENCH_LIVE_BIG_MB=200                       plus one session of this size, the one appended to
//   BENCH_LIVE_APPENDS=50                       appends, one at a time, each waited for
//   BENCH_LIVE_SETTLE=20                        serve's --settle (s): quiet time before a session is rebuilt
//   BENCH_LIVE_CLI=path/to/bin.js               the build to measure (default this checkout's)
//   BENCH_LIVE_HEAP=0                           no heap snapshots (by default: at the start, middle and end)
//   BENCH_LIVE_MEMLOG=0                         no memory log of serve and its builds (live-memory-log.cjs)
//   BENCH_LIVE_WATCH_APPENDS=10                 appends to the big session under `report --watch` (0: none), of
//                                               this build and of BENCH_BASELINE's (a checkout, built)
//
// For each append: write two entries (a prompt and an answer with a unique marker) chained to the session's last
// entry, then wait for the server's event that names the session's pages (`append`: the append path; `change`:
// a rebuild) and fetch them until one holds the marker. Latency = append written → page with the marker
// received. The memory run ("an hour of appends at Claude Code's pace, simulated quickly") is the same loop
// with many appends (BENCH_LIVE_APPENDS=600: about one entry pair every 6 s for an hour), each waited for; the
// session's rebuilds it causes (every 200 appends: serve keeps at most 400 live entries per file) are counted.
// Each run starts from the archive as generated: what an earlier run appended to the big session is cut off.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { generateCorpus } from './generate.mjs';
import { heapGrowth, takeHeapSnapshot } from './heap-snapshot.mjs';
import { memoryLogEnv, memoryRows } from './live-memory.mjs';
import { appendLines, biggest, get, lastEntry, usage } from './live-session.mjs';
import { measureWatch } from './live-watch.mjs';
import { mb, median } from './measure.mjs';

const root = resolve(import.meta.dirname, '../..');

/** Runs the appends against one build; returns the table's rows. */
async function measure({ work, SESSIONS, TOTAL_MB, BIG_MB, APPENDS, SETTLE, CLI, HEAP, MEMLOG, log }) {
  const input = join(work, 'projects');
  if (!existsSync(input)) {
    mkdirSync(work, { recursive: true });
    log(`generating ${SESSIONS} sessions, ${TOTAL_MB} MB into ${input}`);
    await generateCorpus(input, { sessions: SESSIONS, totalMb: TOTAL_MB, profile: 'calibrated' });
    // The session Claude Code is writing: one big file, in a project of its own.
    if (BIG_MB > 0) {
      const tmp = join(work, 'big');
      await generateCorpus(tmp, { sessions: 1, totalMb: BIG_MB, seed: 7, profile: 'calibrated' });
      renameSync(join(tmp, '-home-dev-projects-app0'), join(input, '-home-dev-projects-live'));
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const generated = join(work, 'generated.json');
  if (!existsSync(generated)) writeFileSync(generated, JSON.stringify(biggest(input)));
  const big = JSON.parse(readFileSync(generated, 'utf8'));
  truncateSync(big.path, big.size);
  log(`biggest session ${big.path} (${mb(big.size)})`);
  rmSync(join(work, 'site'), { recursive: true, force: true });
  rmSync(join(work, 'cache'), { recursive: true, force: true });
  const started = performance.now();
  const heapDir = join(work, 'heap');
  mkdirSync(heapDir, { recursive: true });
  const heapFlags = HEAP ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : [];
  const memlog = MEMLOG ? join(work, 'memory') : null;
  const server = spawn(
    process.execPath,
    [...heapFlags, CLI, 'serve', input, '-o', join(work, 'site'), '--settle', SETTLE],
    {
      env: {
        ...process.env,
        NO_COLOR: '1',
        CCTRAIL_CACHE_DIR: join(work, 'cache'),
        ...(memlog ? memoryLogEnv(memlog) : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  server.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/m.exec(out);
      if (m) resolve(m[1]);
    });
    server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  while (!stderr.includes('Watching')) await new Promise((r) => server.stderr.once('data', r));
  const firstBuild = performance.now() - started;
  log(`first build and serve: ${(firstBuild / 1000).toFixed(1)} s at ${url}`);

  // The event stream: the pages each `append` or `change` event names.
  const changes = [];
  let wake = null;
  request(`${url}_cctrail/live`, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (d) => {
      buffer += d;
      let at = buffer.indexOf('\n\n');
      while (at >= 0) {
        const event = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (event.startsWith('event: change') || event.startsWith('event: append')) {
          const data = JSON.parse(event.split('\ndata: ')[1]);
          changes.push(data.pages ?? [data.page]);
          wake?.();
        }
        at = buffer.indexOf('\n\n');
      }
    });
  })
    .on('error', (error) => log(`event stream: ${error.message}; serve said: ${stderr.slice(-2000)}`))
    .end();
  server.once('exit', (code, signal) => log(`serve exited: ${code ?? signal}`));

  // The heap after a full GC (a snapshot forces one), at the start, middle and end of the appends: the server
  // answers a request only once its snapshot is written.
  const heaps = [];
  const snapshot = async (when) => {
    if (!HEAP) return;
    heaps.push(await takeHeapSnapshot(server.pid, heapDir, () => get(url)));
    log(`heap after GC, ${when}: ${mb(heaps.at(-1).bytes)}`);
    if (heaps.length > 1)
      for (const row of heapGrowth(heaps[0], heaps.at(-1), 8))
        log(`  grew since the start: ${row.key} ${row.count} objects, ${mb(row.size)}`);
  };
  await snapshot('start');

  const sessionId = lastEntry(big.path).sessionId;
  let parent = lastEntry(big.path);
  const latencies = [];
  const cpu = [];
  const rss = [usage(server.pid).rss];
  const served = [];
  for (let i = 0; i < APPENDS; i++) {
    const marker = `bench-live-marker-${i}-${Date.now()}`;
    const { text, last } = appendLines(parent, marker, i);
    parent = last;
    const before = usage(server.pid);
    const t0 = performance.now();
    appendFileSync(big.path, text);
    let found = false;
    while (!found) {
      await new Promise((r) => {
        wake = r;
        if (changes.length) r();
      });
      const pages = changes
        .splice(0)
        .flat()
        .filter((p) => p.includes(`/${sessionId.toLowerCase()}/`));
      for (const page of pages) if ((await get(`${url}${page.slice(1)}`)).includes(marker)) found = true;
    }
    latencies.push(performance.now() - t0);
    served.push(Date.now());
    const after = usage(server.pid);
    cpu.push(after.cpuMs - before.cpuMs);
    rss.push(after.rss);
    log(
      `append ${i + 1}/${APPENDS}: ${(latencies.at(-1) / 1000).toFixed(2)} s, CPU ${(cpu.at(-1) / 1000).toFixed(2)} s, RSS ${mb(after.rss)}`,
    );
    if (i + 1 === APPENDS >> 1) await snapshot('middle');
  }
  // The end of the hour: the session's rebuild the last appends asked for, if any, has run.
  while (/rebuilding…\n$/.test(stderr)) await new Promise((r) => server.stderr.once('data', r));
  const rssEnd = usage(server.pid).rss;
  await snapshot('end');
  const rebuilds = (stderr.match(/rebuilding…/g) ?? []).length;
  const stopping = performance.now();
  server.kill('SIGINT');
  await new Promise((r) => server.once('exit', r));
  const stopped = performance.now() - stopping;
  writeFileSync(join(work, 'serve.log'), stderr);

  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  return `| archive | ${SESSIONS} sessions, ${TOTAL_MB} MB (calibrated); appended to a ${mb(big.size)} session |
| first build, then serving | ${s(firstBuild)} |
| latency append → updated page served, median (${APPENDS} appends) | ${s(median(latencies))} |
| latency, p95 / max | ${s(p95)} / ${s(sorted.at(-1))} |
| serve's CPU per append, median (first half / second half) | ${s(median(cpu))} (${s(median(cpu.slice(0, cpu.length >> 1)))} / ${s(median(cpu.slice(cpu.length >> 1)))}) |
| serve's RSS: after the first build / after the last append / highest | ${mb(rss[0])} / ${mb(rss.at(-1))} / ${mb(Math.max(...rss))} |
| serve's RSS, median of each quarter of the appends | ${[0, 1, 2, 3].map((q) => mb(median(rss.slice(1).slice((q * APPENDS) >> 2, ((q + 1) * APPENDS) >> 2)))).join(' / ')} |
| serve's RSS at the start / at the end of the appends (no rebuild running) | ${mb(rss[0])} / ${mb(rssEnd)} |
${memoryRows(rss.slice(1), served, memlog, server.pid).join('\n')}
${HEAP ? `| serve's heap after a full GC: start / middle / end of the appends | ${heaps.map((h) => mb(h.bytes)).join(' / ')} |\n` : ''}| rebuilds during the appends; Ctrl-C to exit (the session rebuilt once) | ${rebuilds}; ${s(stopped)} |`;
}

/**
 * Benchmark 7 of `pnpm bench` (opt-in, like 5: BENCH_ONLY=7; sizes scaled by BENCH_SCALE). Measures the build
 * under test only: the append path is what is measured, and a baseline without it takes a session's whole
 * rebuild per append (see BENCHMARKS.md, #29).
 */
export async function live(ctx) {
  const sizes = {
    SESSIONS: Number(process.env.BENCH_LIVE_SESSIONS ?? 550),
    TOTAL_MB: Math.round(Number(process.env.BENCH_LIVE_MB ?? 680) * ctx.scale),
    BIG_MB: Math.round(Number(process.env.BENCH_LIVE_BIG_MB ?? 200) * ctx.scale),
  };
  const work = join(ctx.work, `live-${sizes.SESSIONS}-${sizes.TOTAL_MB}-${sizes.BIG_MB}`);
  const table = await measure({
    ...sizes,
    work,
    APPENDS: Number(process.env.BENCH_LIVE_APPENDS ?? 50),
    SETTLE: process.env.BENCH_LIVE_SETTLE ?? '20',
    HEAP: process.env.BENCH_LIVE_HEAP !== '0',
    MEMLOG: process.env.BENCH_LIVE_MEMLOG !== '0',
    CLI: process.env.BENCH_LIVE_CLI ? resolve(process.env.BENCH_LIVE_CLI) : ctx.builds[0].cli,
    log: ctx.log,
  });
  // \`report --watch\`: the build under test (the append path) and, when given, the baseline's (a rebuild per change).
  const WATCH = Number(process.env.BENCH_LIVE_WATCH_APPENDS ?? 10);
  const watchRows = [];
  const builds = [
    {
      cli: process.env.BENCH_LIVE_CLI ? resolve(process.env.BENCH_LIVE_CLI) : ctx.builds[0].cli,
      name: ctx.builds[0].commit,
      settle: process.env.BENCH_LIVE_SETTLE ?? '20',
    },
    ...(ctx.builds[1] ? [{ cli: ctx.builds[1].cli, name: ctx.builds[1].commit, settle: null }] : []),
  ];
  if (WATCH > 0)
    for (const build of builds) {
      const w = await measureWatch({
        work,
        APPENDS: WATCH,
        CLI: build.cli,
        settle: build.settle,
        log: ctx.log,
      });
      const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
      watchRows.push(
        `| \`report --watch\` (${build.name}): append → last page written, median / max (${WATCH} appends); rebuilds | ${s(w.median)} / ${s(w.max)}; ${w.rebuilds} |`,
      );
    }
  return `## 7. Live: \`cctrail serve\` (#29)

\`cctrail serve\` of the build under test (${ctx.builds[0].commit}) on a generated archive plus one big session in a
project of its own; entries appended to the big session one pair at a time (a prompt and an answer holding a
unique marker, chained to its last entry). Latency: from the append written to a page the server names in its
\`append\` or \`change\` event served holding the marker. CPU and RSS: the \`serve\` process's, from /proc.

| figure | value |
| --- | --- |
${table}
${watchRows.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const log = (...args) => console.error('bench-live:', ...args);
  const cli = join(root, 'packages/cli/dist/bin.js');
  const baseline = process.env.BENCH_BASELINE
    ? [{ cli: join(resolve(process.env.BENCH_BASELINE), 'packages/cli/dist/bin.js'), commit: 'baseline' }]
    : [];
  console.log(
    await live({
      work: join(root, '.bench'),
      scale: 1,
      builds: [{ cli, commit: 'this checkout' }, ...baseline],
      log,
    }),
  );
}
