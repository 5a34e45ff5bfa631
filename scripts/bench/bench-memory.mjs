// Benchmark 2: time and peak memory of `stats` and `export` on one huge session, for every build.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { inTurn } from './builds.mjs';
import { dataset, sizeOf, warm } from './files.mjs';
import { mb, median, run, seconds, spread } from './measure.mjs';

/** Runs benchmark 2 and returns its section. */
export async function memory(ctx) {
  const { builds, figures, scale, runs, work } = ctx;
  const dir = await dataset(
    work,
    `single-1024-x${scale}`,
    { profile: 'calibrated', sessions: 1, totalMb: 1024 * scale, seed: 12 },
    ctx.log,
  );
  const bytes = sizeOf(dir);
  const rows = [];
  const out = join(work, 'export-1024');
  // Every run starts without the digests `stats` caches.
  const env = { CCTRAIL_CACHE_DIR: join(work, 'stats-cache') };
  for (const [label, args] of [
    ['`cctrail stats --json`', ['stats', '--json', dir]],
    ['`cctrail export -o DIR`', ['export', dir, '-o', out]],
  ]) {
    const results = Object.fromEntries(builds.map((b) => [b.name, []]));
    for (let i = 0; i < runs; i++) {
      for (const b of inTurn(builds, i)) {
        rmSync(out, { recursive: true, force: true });
        rmSync(env.CCTRAIL_CACHE_DIR, { recursive: true, force: true });
        warm(dir);
        const r = await run(process.execPath, [b.cli, ...args], { env });
        if (r.code !== 0) ctx.log(label, b.name, 'exited', r.code, r.stderr.slice(-500));
        results[b.name].push(r);
      }
    }
    for (const b of builds) {
      const ms = results[b.name].map((r) => r.ms);
      const peak = results[b.name].map((r) => r.peakRss);
      const tag = builds.length > 1 ? ` (${b.name})` : '';
      rows.push(
        `| ${label}${tag} | ${spread(ms, seconds)} | ${spread(peak, mb)} | ${median(peak) < 512 * 1048576 ? 'met' : 'missed'} |`,
      );
      figures.add(`2. ${label}, time`, b.name, ms, seconds);
      figures.add(`2. ${label}, peak RSS`, b.name, peak, mb);
    }
  }
  return `## 2. Memory on a huge session

One generated session of ${mb(bytes)} (calibrated profile; tool results up to 1 MB each).

| command | time | peak RSS | target < 512 MiB |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
}
