// The memory figures of the live benchmark (#29): whether `cctrail serve` stays flat over an hour of appends.
// RSS of the serve process at 10, 50 and 100 % of the appends and its slope (a least-squares line through the RSS
// after each append, past the first 10 %), and, from `live-memory-log.cjs` preloaded into serve and the builds it
// runs, serve's `process.memoryUsage()` at the same points (what of its RSS is the JavaScript heap V8 holds,
// what is outside it) and the builds' peak RSS.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mb, median } from './measure.mjs';

const PRELOAD = join(import.meta.dirname, 'live-memory-log.cjs');
const POINTS = [0.1, 0.5, 1];

/** The environment that makes serve and its builds log their memory into `dir` (emptied). */
export function memoryLogEnv(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const options = [process.env.NODE_OPTIONS, `--require=${PRELOAD}`].filter(Boolean).join(' ');
  return { NODE_OPTIONS: options, CCTRAIL_BENCH_MEMLOG: dir };
}

/** Least-squares slope of `ys` against `xs`. */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The median of the values in the 5 % of the run that ends at `point` (a fraction of it). */
function near(values, point) {
  const end = Math.max(1, Math.round(values.length * point));
  const start = Math.max(0, end - Math.max(1, Math.round(values.length * 0.05)));
  return median(values.slice(start, end));
}

/**
 * Rows of the memory figures.
 *
 * @param rss Serve's RSS after each append (bytes), in order.
 * @param times When each append was served (ms since the epoch).
 * @param dir The folder the preloaded logger wrote to, or null.
 * @param servePid Serve's pid.
 */
export function memoryRows(rss, times, dir, servePid) {
  const n = rss.length;
  const from = Math.floor(n * 0.1);
  const perAppend = slope(
    rss.slice(from).map((_, i) => from + i),
    rss.slice(from),
  );
  const per100 = (perAppend * 100) / 2 ** 20;
  const rows = [
    `| serve's RSS at 10 / 50 / 100 % of the appends (median of the 5 % before each point) | ${POINTS.map((p) => mb(near(rss, p))).join(' / ')} |`,
    `| serve's RSS slope past the first 10 %: per 100 appends; times the number of appends | ${per100 >= 0 ? '+' : ''}${per100.toFixed(2)} MiB; ${((perAppend * n) / 2 ** 20).toFixed(1)} MiB |`,
  ];
  if (!dir || !existsSync(dir)) return rows;
  const logs = readdirSync(dir).map((f) => ({
    pid: Number.parseInt(f, 10),
    samples: readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  }));
  const serve = logs.find((l) => l.pid === servePid)?.samples ?? [];
  // Serve's samples nearest to each point of the appends.
  const at = (point) => {
    const when = times[Math.max(0, Math.round(times.length * point) - 1)];
    return serve.reduce((best, s) => (Math.abs(s.at - when) < Math.abs(best.at - when) ? s : best), serve[0]);
  };
  if (serve.length > 0) {
    const points = POINTS.map(at);
    const show = (key) => points.map((s) => mb(s[key])).join(' / ');
    rows.push(
      `| serve's \`process.memoryUsage()\` at 10 / 50 / 100 %: rss | ${show('rss')} |`,
      `| heapTotal (the heap V8 holds) / heapUsed | ${show('heapTotal')}; ${show('heapUsed')} |`,
      `| external / arrayBuffers | ${show('external')}; ${show('arrayBuffers')} |`,
      `| rss − heapTotal (outside the JavaScript heap) | ${points.map((s) => mb(s.rss - s.heapTotal)).join(' / ')} |`,
    );
  }
  const builds = logs.filter((l) => l.samples[0]?.command === 'report');
  if (builds.length > 0)
    rows.push(
      `| builds run by serve (child processes); their peak RSS, median (max) | ${builds.length}; ${mb(median(builds.map((b) => Math.max(...b.samples.map((s) => s.rss)))))} (${mb(Math.max(...builds.flatMap((b) => b.samples.map((s) => s.rss))))}) |`,
    );
  return rows;
}
